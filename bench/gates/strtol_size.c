/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: decimal width and height parsed with strtol from a PGM header ("P5 W H MAXVAL");
 * their 32-bit product can wrap, and only a wrap small enough to pass the size check hits
 * the bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { PG_HDR_MAX = 64 };
#define PG_DIM_MAX 10000000L

static volatile uint32_t pg_sink;

/* One header number: strtol skips the white space before it; one more must follow. */
static long pg_number(const char *s, char **end)
{
    long v = strtol(s, end, 10);
    if (*end == s || (**end != ' ' && **end != '\n' && **end != '\t' && **end != '\r'))
        return -1;
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char hdr[PG_HDR_MAX + 1];
    size_t n = size < PG_HDR_MAX ? size : PG_HDR_MAX;
    memcpy(hdr, data, n);
    hdr[n] = '\0';
    if (n < 3 || hdr[0] != 'P' || hdr[1] != '5')
        return 0;
    char *s = hdr + 2, *end;
    long w = pg_number(s, &end);
    long h = w > 0 ? pg_number(end, &end) : -1;
    long maxval = h > 0 ? pg_number(end, &end) : -1;
    if (w <= 0 || h <= 0 || w > PG_DIM_MAX || h > PG_DIM_MAX || maxval <= 0 || maxval > 255)
        return 0;
    size_t pix = (size_t)(end - hdr) + 1;
    /* The bug: the pixel count is computed in 32 bits, so a huge image can pass the size
     * check; the row loop then writes w * h pixels (abort stands for that overflow). */
    uint32_t need = (uint32_t)w * (uint32_t)h;
    if (need > size - pix)
        return 0;
    if ((uint64_t)w * (uint64_t)h != need)
        abort();
    for (uint32_t i = 0; i < need; i++)
        pg_sink += data[pix + i];
    return 0;
}
