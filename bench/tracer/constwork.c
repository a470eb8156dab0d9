/* SPDX-License-Identifier: Apache-2.0 */
/* Case 3 of bench/tracer: a harness whose work never sees the input. It
 * deflates a 256 KiB buffer made here from a fixed seed (level 6), inflates
 * it back and sinks the Adler-32, so every byte the timed code touches is
 * concrete even while tracing is on and the input is symbolic. Measures
 * the tracer's cost on code that carries no symbolic state. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zlib.h"

#define CW_SIZE (256u * 1024u)

static unsigned char cw_plain[CW_SIZE];
static unsigned char cw_packed[CW_SIZE + CW_SIZE / 8 + 1024];
static unsigned char cw_back[CW_SIZE];
static volatile uLong cw_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Words of a small made-up vocabulary: text deflate can match, not runs. */
static void cw_fill(unsigned char *p, size_t n)
{
    static const char *const words[] = {"glass", "box",  "trace", "shadow",  "branch",
                                        "flip",  "seed", "zlib",  "inflate", "of",
                                        "the",   "a",    "path",  "solver",  "byte"};
    uint32_t x = 12345u;
    size_t i = 0;
    while (i < n) {
        x = x * 1103515245u + 12345u;
        const char *w = words[(x >> 16) % (sizeof words / sizeof words[0])];
        for (; *w && i < n; w++)
            p[i++] = (unsigned char)*w;
        if (i < n)
            p[i++] = (x >> 8) % 11 == 0 ? '\n' : ' ';
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    cw_fill(cw_plain, CW_SIZE);
    uLongf packed = sizeof cw_packed;
    if (compress2(cw_packed, &packed, cw_plain, CW_SIZE, 6) != Z_OK)
        return 0;
    uLongf back = sizeof cw_back;
    if (uncompress(cw_back, &back, cw_packed, packed) != Z_OK)
        return 0;
    cw_sink = adler32(adler32(0L, Z_NULL, 0), cw_back, (uInt)back) ^ packed;
    return 0;
}
