/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: nested TLVs with a checksum at both levels: each inner TLV ends with an 8-bit sum
 * (Intel HEX style), each outer one with a 16-bit ones'-complement sum (IP style). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Outer: type 0x30, length, inner TLVs, sum16 (BE). Inner: type, length, value, sum8 making
 * type + length + value + sum8 == 0 mod 256. */
enum { TL_OUTER = 0x30, TL_WINDOW = 0x05, TL_MAX_WINDOW = 64 };

static volatile uint32_t tl_sink;

static uint16_t tl_sum16(const uint8_t *p, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)(p[i] << 8 | p[i + 1]);
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    return (uint16_t)~s;
}

static int tl_sum8_ok(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    for (size_t i = 0; i < n; i++)
        s = (uint8_t)(s + p[i]);
    return s == 0;
}

/* The bug: the window size indexes a table of TL_MAX_WINDOW slots unchecked (abort stands
 * for the write past it). */
static void tl_inner(const uint8_t *p, size_t n)
{
    size_t off = 0;
    while (n - off >= 3) {
        size_t len = p[off + 1];
        if (len > n - off - 3 || !tl_sum8_ok(p + off, len + 3))
            return;
        if (p[off] == TL_WINDOW && len == 1) {
            if (p[off + 2] > TL_MAX_WINDOW)
                abort();
            tl_sink += p[off + 2];
        }
        off += len + 3;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    while (size - off >= 4) {
        size_t len = data[off + 1];
        if (data[off] != TL_OUTER || len > size - off - 4)
            return 0;
        const uint8_t *v = data + off + 2;
        if (tl_sum16(v, len) != (uint16_t)(v[len] << 8 | v[len + 1]))
            return 0;
        tl_inner(v, len);
        off += len + 4;
    }
    return 0;
}
