/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, decoding table): a base64 body (newlines allowed) decoded through a
 * 256-entry table whose invalid entries are 0xff; the decoded record must start with the
 * magic "GBX1" and its entry count must exceed the 8 slots. Every decoded byte is four
 * table lookups away from the input: with the table pinned, no magic can be asked for. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { B6_SLOTS = 8, B6_MAX = 768 };

static volatile uint32_t b6_sink;

#define X 0xff
static const uint8_t b6_val[256] = {
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  62, X,  X,  X,  63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X,  X,  X,  X,  X,  X,  X,  0,  1,  2,  3,  4,  5,  6,
    7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X,  X,  X,  X,  X,
    X,  26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,
    X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X,  X};
#undef X

/* Decodes whole quads (no padding); the number of bytes, or -1 on a bad character. */
static long b6_decode(const uint8_t *in, size_t n, uint8_t *out)
{
    uint32_t acc = 0;
    unsigned have = 0;
    long k = 0;
    for (size_t i = 0; i < n && k + 3 <= B6_MAX; i++) {
        if (in[i] == '\n')
            continue;
        uint8_t v = b6_val[in[i]];
        if (v == 0xff)
            return -1;
        acc = acc << 6 | v;
        if (++have == 4) {
            out[k++] = (uint8_t)(acc >> 16);
            out[k++] = (uint8_t)(acc >> 8);
            out[k++] = (uint8_t)acc;
            acc = 0;
            have = 0;
        }
    }
    return k;
}

/* The bug: the record's entries go into B6_SLOTS slots (abort stands for the write
 * past them). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t rec[B6_MAX];
    long n = b6_decode(data, size, rec);
    if (n < 5 || memcmp(rec, "GBX1", 4) != 0)
        return 0;
    if (rec[4] > B6_SLOTS)
        abort();
    for (long i = 5; i < n; i++)
        b6_sink += rec[i];
    return 0;
}
