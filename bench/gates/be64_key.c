/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a big-endian 64-bit compare: KLV records keyed by 64-bit big-endian ids (MXF keys
 * its KLV triplets with 16-byte big-endian labels, Matroska its elements with big-endian
 * ids). Only the rarely used key's handler has the bug; the seed has none. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "GBKL", then records: key (BE64), length (BE16), value. */
#define KL_KEY_ESSENCE 0x060e2b3401020101ull
#define KL_KEY_PARTITION 0x060e2b3402050101ull
#define KL_KEY_PRIMER 0x060e2b3402050105ull
#define KL_KEY_INDEX 0x9f4a17c3d85e62b0ull
enum { KL_REC_HDR = 10, KL_INDEX_SLOTS = 8 };

static volatile uint64_t kl_sink;

static uint64_t kl_rd64be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Index: a slot count, then 8-byte entries. The bug: the count is trusted, and entries go
 * into KL_INDEX_SLOTS slots (abort stands for the write past them). */
static void kl_index(const uint8_t *p, size_t n)
{
    if (n < 1)
        return;
    if (p[0] > KL_INDEX_SLOTS)
        abort();
    kl_sink += p[0];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || memcmp(data, "GBKL", 4) != 0)
        return 0;
    size_t off = 4;
    while (size - off >= KL_REC_HDR) {
        uint64_t key = kl_rd64be(data + off);
        size_t n = (size_t)(data[off + 8] << 8 | data[off + 9]);
        const uint8_t *v = data + off + KL_REC_HDR;
        if (n > size - off - KL_REC_HDR)
            return 0;
        if (key == KL_KEY_PARTITION || key == KL_KEY_PRIMER)
            kl_sink += n;
        else if (key == KL_KEY_ESSENCE)
            kl_sink += n ? v[0] : 0;
        else if (key == KL_KEY_INDEX)
            kl_index(v, n);
        /* Unknown keys are skipped, as KLV allows. */
        off += KL_REC_HDR + n;
    }
    return 0;
}
