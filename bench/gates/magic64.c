/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: an 8-byte section signature compared as one uint64 (like ASF's object GUIDs, cut to
 * 8 bytes). The index section's reader trusts its entry count; the seed has no index. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Signatures as little-endian uint64s: random-looking bytes, so no two share a prefix. */
#define SF_SIG_TEXT 0x6e1d3b27a4c90f58ull
#define SF_SIG_META 0x1f9c6a02e85bd734ull
#define SF_SIG_INDEX 0xd2c4b9a1e7f03865ull

enum { SF_HDR = 6, SF_SECT_HDR = 10 };

static volatile uint32_t sf_sink;

static uint16_t sf_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* The bug: count is never checked against the section's length, so its offsets are read
 * past the section (abort stands for that out-of-bounds read). */
static void sf_index(const uint8_t *p, size_t len)
{
    if (len < 1)
        return;
    size_t count = p[0];
    if (1 + count * 4 > len)
        abort();
    for (size_t i = 0; i < count; i++)
        sf_sink += p[1 + i * 4];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < SF_HDR || memcmp(data, "GBSF", 4) != 0 || data[4] != 1)
        return 0;
    size_t nsect = data[5], off = SF_HDR;
    for (size_t i = 0; i < nsect; i++) {
        if (size - off < SF_SECT_HDR)
            return 0;
        uint64_t sig;
        memcpy(&sig, data + off, 8);
        size_t len = sf_rd16(data + off + 8);
        const uint8_t *body = data + off + SF_SECT_HDR;
        if (len > size - off - SF_SECT_HDR)
            return 0;
        if (sig == SF_SIG_TEXT || sig == SF_SIG_META)
            sf_sink += len ? body[0] : 0;
        else if (sig == SF_SIG_INDEX)
            sf_index(body, len);
        /* Unknown signatures are skipped: newer writers may add sections. */
        off += SF_SECT_HDR + len;
    }
    return 0;
}
