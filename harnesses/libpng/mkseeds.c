/* SPDX-License-Identifier: Apache-2.0 */
/* Seeds for the libpng harnesses, written by libpng's own writer (linked
 * against the asan build by harnesses/lib/debsrc.sh): small images of
 * every color type the decoder expands differently (RGB, RGBA, palette with
 * tRNS, 1-bit gray, 16-bit gray interlaced) with a few ancillary chunks.
 * Usage: mkseeds DIR (writes DIR/png_read/ and DIR/png_read_nocheck/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "png.h"

static const char *gb_dir;

typedef struct {
    unsigned char buf[8192];
    size_t n;
} gb_mem_t;

static void gb_mem_write(png_structp png, png_bytep d, size_t n)
{
    gb_mem_t *m = png_get_io_ptr(png);
    if (n > sizeof m->buf - m->n)
        png_error(png, "seed larger than 8 KiB");
    memcpy(m->buf + m->n, d, n);
    m->n += n;
}
static void gb_mem_flush(png_structp png) { (void)png; }

static void gb_save(const char *name, const gb_mem_t *m)
{
    static const char *const subs[] = {"png_read", "png_read_nocheck"};
    char path[4096];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", gb_dir, subs[i]);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/%s/%s", gb_dir, subs[i], name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(m->buf, 1, m->n, f) != m->n || fclose(f) != 0) {
            fprintf(stderr, "mkseeds: cannot write %s\n", path);
            exit(1);
        }
    }
}

/* Writes a W x H image of TYPE/DEPTH whose row y is ROW(y) bytes of a
 * pattern; EXTRA adds chunks (palette, tRNS, text) before the image. */
static void gb_seed(const char *name, unsigned w, unsigned h, int depth, int type, int interlace,
                    void (*extra)(png_structp, png_infop))
{
    static gb_mem_t m;
    static unsigned char row[1024];
    m.n = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "mkseeds: libpng failed to write %s\n", name);
        exit(1);
    }
    png_set_write_fn(png, &m, gb_mem_write, gb_mem_flush);
    png_set_IHDR(png, info, w, h, depth, type, interlace, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (extra)
        extra(png, info);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (unsigned y = 0; y < h; y++) {
            for (size_t i = 0; i < sizeof row; i++)
                row[i] = (unsigned char)(i * 7u + y * 13u);
            png_write_row(png, row);
        }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    gb_save(name, &m);
}

static void gb_text_gamma(png_structp png, png_infop info)
{
    png_text t[2];
    memset(t, 0, sizeof t);
    t[0].compression = PNG_TEXT_COMPRESSION_NONE;
    t[0].key = "Title";
    t[0].text = "glassbox seed";
    t[1].compression = PNG_TEXT_COMPRESSION_zTXt;
    t[1].key = "Comment";
    t[1].text = "a compressed comment, compressed comment, compressed";
    png_set_text(png, info, t, 2);
    png_set_gAMA(png, info, 0.45455);
}

static void gb_palette(png_structp png, png_infop info)
{
    png_color pal[4] = {{0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    png_byte trans[2] = {0, 128};
    png_set_PLTE(png, info, pal, 4);
    png_set_tRNS(png, info, trans, 2, NULL);
}

static void gb_time_phys(png_structp png, png_infop info)
{
    png_time t = {2024, 1, 2, 3, 4, 5};
    png_set_tIME(png, info, &t);
    png_set_pHYs(png, info, 2835, 2835, PNG_RESOLUTION_METER);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    gb_dir = argv[1];
    gb_seed("rgb8-text.png", 4, 3, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, gb_text_gamma);
    gb_seed("rgba8-time.png", 3, 3, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, gb_time_phys);
    gb_seed("palette2-trns.png", 8, 2, 2, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, gb_palette);
    gb_seed("gray1.png", 9, 3, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL);
    gb_seed("gray16-adam7.png", 5, 5, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7, NULL);
    return 0;
}
