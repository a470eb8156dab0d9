/* SPDX-License-Identifier: Apache-2.0 */
/* Writes the inputs of bench/tracer into DIR, deterministically:
 *   demo.gbox  a valid GBOX file (docs/demo-format.md) of ~320 KiB: header
 *              1024x1024, a title, a container with indexed data and a
 *              palette, five 60,000-pixel gray data chunks, a 20,000-byte
 *              unknown chunk, end; every CRC correct;
 *   inflate.zz a zlib stream (level 6) that inflates to exactly 64 KiB of
 *              made-up text with some binary runs;
 *   const.bin  4 KiB of bytes, the (unused) input of constwork.c.
 * Linked against zlib for compress2 and crc32. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

#define GEN_CAP (1u << 20)

typedef struct {
    unsigned char *b;
    size_t n;
} gen_buf_t;

static uint32_t gen_rand_state = 1u;

static uint32_t gen_rand(void)
{
    gen_rand_state = gen_rand_state * 1103515245u + 12345u;
    return gen_rand_state >> 8;
}

static void gen_put8(gen_buf_t *b, uint32_t v)
{
    if (b->n >= GEN_CAP) {
        fprintf(stderr, "gen: buffer full\n");
        exit(1);
    }
    b->b[b->n++] = (unsigned char)v;
}

static void gen_put16(gen_buf_t *b, uint32_t v)
{
    gen_put8(b, v & 0xffu);
    gen_put8(b, v >> 8 & 0xffu);
}

static void gen_put32(gen_buf_t *b, uint32_t v)
{
    gen_put16(b, v & 0xffffu);
    gen_put16(b, v >> 16);
}

/* Chunks open and close like brackets, so a container's length and CRC
 * are filled in once its contents are written. */
static size_t gen_open(gen_buf_t *b, char type)
{
    size_t start = b->n;
    gen_put8(b, (unsigned char)type);
    gen_put16(b, 0);
    return start;
}

static void gen_close(gen_buf_t *b, size_t start)
{
    size_t len = b->n - start - 3;
    if (len > 65535) {
        fprintf(stderr, "gen: chunk of %zu bytes\n", len);
        exit(1);
    }
    b->b[start + 1] = (unsigned char)(len & 0xffu);
    b->b[start + 2] = (unsigned char)(len >> 8);
    gen_put32(b, (uint32_t)crc32(0L, b->b + start, (uInt)(b->n - start)));
}

static void gen_data(gen_buf_t *b, uint32_t format, size_t pixels)
{
    size_t c = gen_open(b, 'D');
    gen_put8(b, format);
    for (size_t i = 0; i < pixels; i++)
        gen_put8(b, format == 2 ? gen_rand() % 4 : gen_rand() & 0xffu);
    gen_close(b, c);
}

static void gen_demo(gen_buf_t *b)
{
    const char *title = "bench/tracer: a large valid GBOX file";
    b->n = 0;
    for (const char *m = "GBOX"; *m; m++)
        gen_put8(b, (unsigned char)*m);
    size_t c = gen_open(b, 'H');
    gen_put16(b, 1);
    gen_put16(b, 1024);
    gen_put16(b, 1024);
    gen_close(b, c);
    c = gen_open(b, 'T');
    for (const char *t = title; *t; t++)
        gen_put8(b, (unsigned char)*t);
    gen_close(b, c);
    size_t outer = gen_open(b, 'C');
    gen_data(b, 2, 1000);
    c = gen_open(b, 'P');
    gen_put32(b, 0);
    gen_put8(b, 4);
    for (uint32_t i = 0; i < 4; i++)
        gen_put32(b, 0xff000000u | i * 0x404040u);
    gen_close(b, c);
    gen_close(b, outer);
    for (int i = 0; i < 5; i++)
        gen_data(b, 0, 60000);
    c = gen_open(b, 'X');
    for (int i = 0; i < 20000; i++)
        gen_put8(b, gen_rand() & 0xffu);
    gen_close(b, c);
    gen_close(b, gen_open(b, 'E'));
}

/* 64 KiB of words with a binary run every few hundred bytes: dynamic
 * Huffman blocks with literals, short and long matches. */
static void gen_text(unsigned char *p, size_t n)
{
    static const char *const words[] = {
        "whitebox", "fuzzing", "path", "constraint", "solver", "generational", "search", "input",
        "byte",     "flip",    "the",  "of",         "a",      "to",           "zlib",   "stream"};
    size_t i = 0;
    while (i < n) {
        uint32_t r = gen_rand();
        if (r % 50 == 0) {
            for (int k = 0; k < 24 && i < n; k++)
                p[i++] = (unsigned char)gen_rand();
            continue;
        }
        for (const char *w = words[r % 16]; *w && i < n; w++)
            p[i++] = (unsigned char)*w;
        if (i < n)
            p[i++] = r % 13 == 0 ? '\n' : ' ';
    }
}

static void gen_write(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "gen: writing %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    gen_buf_t b = {malloc(GEN_CAP), 0};
    unsigned char *text = malloc(65536);
    uLongf zn = compressBound(65536);
    unsigned char *z = malloc(zn);
    if (!b.b || !text || !z)
        return 1;
    gen_demo(&b);
    gen_write(argv[1], "demo.gbox", b.b, b.n);
    gen_text(text, 65536);
    if (compress2(z, &zn, text, 65536, 6) != Z_OK)
        return 1;
    gen_write(argv[1], "inflate.zz", z, zn);
    for (size_t i = 0; i < 4096; i++)
        b.b[i] = (unsigned char)gen_rand();
    gen_write(argv[1], "const.bin", b.b, 4096);
    free(b.b);
    free(text);
    free(z);
    return 0;
}
