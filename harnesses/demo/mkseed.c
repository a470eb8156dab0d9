/* SPDX-License-Identifier: Apache-2.0 */
/* Writes the GBOX seed and examples (docs/demo-format.md) so their bytes and CRCs are
 * reproducible. The CRC here is the bitwise form, independent of the harness's table. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    uint8_t b[1024];
    size_t n;
} mk_buf_t;

static uint32_t mk_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return c ^ 0xffffffffu;
}

static void mk_put8(mk_buf_t *b, uint32_t v)
{
    if (b->n >= sizeof b->b) {
        fprintf(stderr, "mkseed: buffer of %zu bytes too small\n", sizeof b->b);
        exit(1);
    }
    b->b[b->n++] = (uint8_t)v;
}

static void mk_put16(mk_buf_t *b, uint32_t v)
{
    mk_put8(b, v & 0xffu);
    mk_put8(b, v >> 8 & 0xffu);
}

static void mk_put32(mk_buf_t *b, uint32_t v)
{
    mk_put16(b, v & 0xffffu);
    mk_put16(b, v >> 16);
}

static void mk_bytes(mk_buf_t *b, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mk_put8(b, ((const uint8_t *)p)[i]);
}

/* Chunks are opened and closed like brackets, so a container's length and CRC are filled
 * in after its nested chunks are complete. */
static size_t mk_open(mk_buf_t *b, char type)
{
    size_t start = b->n;
    mk_put8(b, (uint8_t)type);
    mk_put16(b, 0);
    return start;
}

static void mk_close(mk_buf_t *b, size_t start)
{
    size_t len = b->n - start - 3;
    b->b[start + 1] = (uint8_t)(len & 0xffu);
    b->b[start + 2] = (uint8_t)(len >> 8);
    mk_put32(b, mk_crc32(b->b + start, b->n - start));
}

static void mk_magic(mk_buf_t *b) { mk_bytes(b, "GBOX", 4); }

static void mk_header(mk_buf_t *b, uint32_t version, uint32_t width, uint32_t height)
{
    size_t c = mk_open(b, 'H');
    mk_put16(b, version);
    mk_put16(b, width);
    mk_put16(b, height);
    mk_close(b, c);
}

static void mk_title(mk_buf_t *b, const char *s)
{
    size_t c = mk_open(b, 'T');
    mk_bytes(b, s, strlen(s));
    mk_close(b, c);
}

static void mk_data(mk_buf_t *b, uint32_t format, const uint8_t *px, size_t n)
{
    size_t c = mk_open(b, 'D');
    mk_put8(b, format);
    mk_bytes(b, px, n);
    mk_close(b, c);
}

static void mk_palette(mk_buf_t *b, uint32_t first, const uint32_t *rgba, uint32_t count)
{
    size_t c = mk_open(b, 'P');
    mk_put32(b, first);
    mk_put8(b, count);
    for (uint32_t i = 0; i < count; i++)
        mk_put32(b, rgba[i]);
    mk_close(b, c);
}

static void mk_end(mk_buf_t *b) { mk_close(b, mk_open(b, 'E')); }

static void mk_write(const char *dir, const char *name, const mk_buf_t *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->b, 1, b->n, f) != b->n || fclose(f) != 0) {
        fprintf(stderr, "mkseed: writing %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void mk_dir(const char *dir, const char *sub, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, sub);
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "mkseed: mkdir(%s): %s\n", out, strerror(errno));
        exit(1);
    }
}

/* Valid, version 1, gray data, a title and no palette: several solved branches (and
 * a checksum repair after each) away from the bug, but with the chunk layout a
 * fixed-length input needs: the title's 13 bytes can become a 2-entry palette. */
static void mk_seed_basic(mk_buf_t *b)
{
    static const uint8_t px[4] = {1, 2, 3, 4};
    mk_magic(b);
    mk_header(b, 1, 8, 8);
    mk_data(b, 0, px, sizeof px);
    mk_title(b, "glassbox demo");
    mk_end(b);
}

/* The original seed: a header, a title and the end, 44 bytes. The bug needs a chunk
 * that is not there (an indexed D) and a palette, so a search must grow the input in
 * the middle and repair CRCs over lengths it changed (scripts/demo starts here). */
static void mk_seed_hte(mk_buf_t *b)
{
    mk_magic(b);
    mk_header(b, 1, 8, 8);
    mk_title(b, "glassbox demo");
    mk_end(b);
}

/* Version 2 header, indexed data, then a palette whose first-entry field has flag bit 31
 * set: the store lands 2^31 entries (8 GiB) past the palette. */
static void mk_crash(mk_buf_t *b)
{
    static const uint8_t px[4] = {0, 1, 2, 3};
    static const uint32_t pal[1] = {0xff0000ffu};
    mk_magic(b);
    mk_header(b, 2, 2, 2);
    mk_data(b, 2, px, sizeof px);
    mk_palette(b, 0x80000000u, pal, 1);
    mk_end(b);
}

/* Valid and every chunk type, nesting included; the palette has no flag bits. */
static void mk_full(mk_buf_t *b)
{
    static const uint8_t idx[8] = {0, 1, 2, 3, 3, 2, 1, 0};
    static const uint8_t gray[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    static const uint32_t pal[4] = {0xff000000u, 0xffff0000u, 0xff00ff00u, 0xff0000ffu};
    mk_magic(b);
    mk_header(b, 2, 4, 4);
    mk_title(b, "all chunk types");
    size_t outer = mk_open(b, 'C');
    mk_title(b, "layer");
    size_t inner = mk_open(b, 'C');
    mk_data(b, 2, idx, sizeof idx);
    mk_palette(b, 0, pal, 4);
    mk_close(b, inner);
    mk_close(b, outer);
    mk_data(b, 0, gray, sizeof gray);
    mk_close(b, mk_open(b, 'X'));
    mk_end(b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR  (writes DIR/seeds/seed-basic.gbox and "
                        "DIR/examples/{crash,full,seed-hte}.gbox)\n", argv[0]);
        return 2;
    }
    char seeds[4096], examples[4096];
    mk_dir(argv[1], "seeds", seeds, sizeof seeds);
    mk_dir(argv[1], "examples", examples, sizeof examples);
    mk_buf_t b;
    b.n = 0;
    mk_seed_basic(&b);
    mk_write(seeds, "seed-basic.gbox", &b);
    b.n = 0;
    mk_crash(&b);
    mk_write(examples, "crash.gbox", &b);
    b.n = 0;
    mk_full(&b);
    mk_write(examples, "full.gbox", &b);
    b.n = 0;
    mk_seed_hte(&b);
    mk_write(examples, "seed-hte.gbox", &b);
    return 0;
}
