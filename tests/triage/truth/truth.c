/* SPDX-License-Identifier: Apache-2.0 */
/* A ground truth for triage (issue 38): a small chunked image decoder
 * with seven known bugs, written the way a parser is (static functions
 * the compiler may inline, calls followed by more work), so that the
 * -O0 and -O2 builds have different stacks for the same bugs.
 *
 * Input: an entry byte, then chunks of [type][len][len bytes].
 *   entry 'M': load_from_mem; 'S': load_from_stream (a second harness
 *   entry point into the same decoder).
 * The bugs, by chunk type (truth_test.sh names each input by its bug):
 *   N  copy_name: memcpy of len bytes into an 8-byte name
 *      (heap-buffer-overflow WRITE, of len bytes), from both entries
 *   L  palette_lookup after an R chunk freed the palette
 *      (heap-use-after-free READ of 1..8 bytes)
 *   W  seek_table: a read at an address from the input
 *      (SEGV READ; below 4096 when the first data byte is 0)
 *   D  scale_dims: width * height in int (UBSan signed-integer-overflow)
 *   I  decode_rows: fill_row writes `width` bytes into a half-size row
 *   A  decode_alpha: fill_row writes n bytes into a 4-byte alpha plane
 *      (I and A: one helper, two bugs told apart by their caller)
 *   C  verify_crc: reads past the chunk's copy, only on every other run
 *      (counted in the file GB_TEST_FLAKY_COUNTER names; never without
 *      it): a flaky bug
 * Anything else is decoded without harm. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image {
    uint8_t *palette; /* 16 entries */
    int palette_freed;
    char *name;
    long area;
    unsigned sum;
} image_t;

static volatile uint8_t sink;

static unsigned read_u32(const uint8_t *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

static int copy_name(image_t *im, const uint8_t *d, size_t n)
{
    free(im->name);
    im->name = malloc(8);
    if (!im->name)
        return -1;
    memcpy(im->name, d, n); /* bug N: n is the chunk's length, not 8 */
    return im->name[0] == 0;
}

static int palette_lookup(image_t *im, const uint8_t *d, size_t n)
{
    uint8_t out[16];
    if (n < 2 || !im->palette)
        return -1;
    size_t len = (size_t)(d[1] % 8) + 1, at = d[0] % (16 - len + 1);
    memcpy(out, im->palette + at, len); /* bug L: the palette may be freed */
    im->sum += out[0];
    return 0;
}

static int seek_table(image_t *im, const uint8_t *d, size_t n)
{
    if (n < 3)
        return -1;
    /* bug W: an offset from the file used as an address. ASan's shadow
     * gap (from 1 TiB) is never mapped, nor is the zero page. */
    uintptr_t at = d[0] == 0
                       ? (uintptr_t)d[1] * 8
                       : ((uintptr_t)1 << 40) + ((uintptr_t)d[1] << 12) + ((uintptr_t)d[2] << 20);
    im->sum += *(volatile const uint8_t *)at;
    return 0;
}

static int scale_dims(image_t *im, const uint8_t *d, size_t n)
{
    if (n < 8)
        return -1;
    int w = (int)read_u32(d), h = (int)read_u32(d + 4);
    if (w <= 0 || h <= 0)
        return -1;
    int area = w * h; /* bug D: overflows for large dimensions */
    im->area = area;
    return area > 0 ? 0 : -1;
}

static void fill_row(uint8_t *dst, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (uint8_t)(v + i);
}

static int decode_rows(image_t *im, const uint8_t *d, size_t n)
{
    if (n < 1)
        return -1;
    size_t width = d[0];
    uint8_t *row = malloc(width / 2 + 1);
    if (!row)
        return -1;
    fill_row(row, width, 7); /* bug I: the row has width / 2 + 1 bytes */
    im->sum += row[0];
    free(row);
    return 0;
}

static int decode_alpha(image_t *im, const uint8_t *d, size_t n)
{
    if (n < 1)
        return -1;
    uint8_t *alpha = malloc(4);
    if (!alpha)
        return -1;
    fill_row(alpha, d[0], 1); /* bug A: the plane has 4 bytes */
    im->sum += alpha[0];
    free(alpha);
    return 0;
}

/* The flaky part: 1 on every other run while the counter file exists. */
static int odd_run(void)
{
    const char *path = getenv("GB_TEST_FLAKY_COUNTER");
    if (!path)
        return 0;
    FILE *f = fopen(path, "r+");
    if (!f)
        return 0;
    long k = 0;
    if (fscanf(f, "%ld", &k) != 1)
        k = 0;
    rewind(f);
    fprintf(f, "%ld\n", k + 1);
    fclose(f);
    return (int)(k & 1);
}

static int verify_crc(image_t *im, const uint8_t *d, size_t n)
{
    if (n < 1)
        return -1;
    uint8_t *copy = malloc(n);
    if (!copy)
        return -1;
    memcpy(copy, d, n);
    size_t end = odd_run() ? n + d[0] % 4 : n - 1; /* bug C: past the copy, sometimes */
    unsigned crc = 0;
    for (size_t i = 0; i <= end; i++)
        crc = crc * 31 + copy[i];
    im->sum += crc;
    free(copy);
    return 0;
}

static int read_chunk(image_t *im, uint8_t type, const uint8_t *d, size_t n)
{
    int rc = 0;
    switch (type) {
    case 'N':
        rc = copy_name(im, d, n);
        break;
    case 'P':
        free(im->palette);
        im->palette = calloc(16, 1);
        im->palette_freed = 0;
        break;
    case 'R':
        free(im->palette); /* the pointer is kept: the use-after-free's cause */
        im->palette_freed = 1;
        break;
    case 'L':
        rc = palette_lookup(im, d, n);
        break;
    case 'W':
        rc = seek_table(im, d, n);
        break;
    case 'D':
        rc = scale_dims(im, d, n);
        break;
    case 'I':
        rc = decode_rows(im, d, n);
        break;
    case 'A':
        rc = decode_alpha(im, d, n);
        break;
    case 'C':
        rc = verify_crc(im, d, n);
        break;
    default:
        break;
    }
    if (rc < 0)
        sink = type;
    return rc;
}

static int decode_image(const uint8_t *buf, size_t len)
{
    image_t im = {0};
    size_t at = 0;
    int chunks = 0;
    while (at + 2 <= len) {
        uint8_t type = buf[at];
        size_t n = buf[at + 1];
        if (at + 2 + n > len)
            break;
        if (read_chunk(&im, type, buf + at + 2, n) < 0)
            break;
        at += 2 + n;
        chunks++;
    }
    if (!im.palette_freed)
        free(im.palette);
    free(im.name);
    sink = (uint8_t)im.sum;
    return chunks;
}

static int load_from_mem(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return -1;
    memcpy(buf, data, size);
    int chunks = decode_image(buf, size);
    free(buf);
    return chunks;
}

/* A reader over the input, as a library's stream API would be. */
typedef struct stream {
    const uint8_t *p;
    size_t left;
} stream_t;

static size_t stream_read(stream_t *s, uint8_t *out, size_t n)
{
    size_t k = n < s->left ? n : s->left;
    memcpy(out, s->p, k);
    s->p += k;
    s->left -= k;
    return k;
}

static int load_from_stream(const uint8_t *data, size_t size)
{
    stream_t s = {data, size};
    uint8_t *buf = malloc(size + 1);
    if (!buf)
        return -1;
    size_t got = 0, k;
    while ((k = stream_read(&s, buf + got, 64)) > 0)
        got += k;
    int chunks = decode_image(buf, got);
    free(buf);
    return chunks < 0 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int rc =
        data[0] == 'S' ? load_from_stream(data + 1, size - 1) : load_from_mem(data + 1, size - 1);
    sink = (uint8_t)rc;
    return 0;
}
