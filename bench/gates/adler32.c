/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: the Adler-32 trailer of a zlib stream made of stored blocks (as small embedded
 * inflaters accept). The payload, a settings table, is only used once the checksum holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { AD_OUT_MAX = 256, AD_MAX_ENTRIES = 16 };
#define AD_BASE 65521u
/* The most bytes before the sums can overflow 32 bits, as in zlib. */
#define AD_NMAX 5552u

static volatile uint32_t ad_sink;

/* zlib's deferred-modulo form: the modulo only every AD_NMAX bytes. */
static uint32_t ad_adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    while (n > 0) {
        size_t k = n < AD_NMAX ? n : AD_NMAX;
        n -= k;
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= AD_BASE;
        b %= AD_BASE;
    }
    return b << 16 | a;
}

/* The stored blocks' bytes, copied to out; -1 on a malformed or non-stored stream. */
static int ad_inflate_stored(const uint8_t *p, size_t n, uint8_t *out, size_t *outlen, size_t *used)
{
    size_t off = 0, o = 0;
    for (;;) {
        if (n - off < 5)
            return -1;
        uint8_t hdr = p[off];
        if ((hdr >> 1 & 3) != 0)
            return -1; /* only stored blocks */
        size_t len = (size_t)(p[off + 1] | p[off + 2] << 8);
        size_t nlen = (size_t)(p[off + 3] | p[off + 4] << 8);
        if ((len ^ 0xffffu) != nlen || len > n - off - 5 || len > AD_OUT_MAX - o)
            return -1;
        memcpy(out + o, p + off + 5, len);
        o += len;
        off += 5 + len;
        if (hdr & 1)
            break;
    }
    *outlen = o;
    *used = off;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || (data[0] & 0x0f) != 8 || (data[0] << 8 | data[1]) % 31 != 0 || (data[1] & 0x20))
        return 0;
    uint8_t out[AD_OUT_MAX];
    size_t outlen, used;
    if (ad_inflate_stored(data + 2, size - 2, out, &outlen, &used) != 0)
        return 0;
    const uint8_t *t = data + 2 + used;
    if (size - 2 - used < 4)
        return 0;
    uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
    if (ad_adler32(out, outlen) != want)
        return 0;
    /* Settings: a count, then count 2-byte entries. The bug: the count is checked against
     * the payload but not against the AD_MAX_ENTRIES slots it is copied into. */
    if (outlen < 1 || 1 + (size_t)out[0] * 2 > outlen)
        return 0;
    if (out[0] > AD_MAX_ENTRIES)
        abort();
    for (size_t i = 0; i < out[0]; i++)
        ad_sink += out[1 + i * 2];
    return 0;
}
