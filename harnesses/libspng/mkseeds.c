/* SPDX-License-Identifier: Apache-2.0 */
/* Seeds for the libspng harnesses, written by libspng's own encoder
 * (spng_encode_image, linked against the asan build by
 * harnesses/lib/debsrc.sh): RGB with a tEXt chunk, RGBA, a 2-bit palette
 * with tRNS, 1-bit gray and 16-bit gray. Usage: mkseeds DIR (writes
 * DIR/spng_decode/ and DIR/spng_decode_nocheck/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spng.h"

static const char *gb_dir;

static void gb_check(int rc, const char *what, const char *name)
{
    if (rc != 0) {
        fprintf(stderr, "mkseeds: %s for %s: %s\n", what, name, spng_strerror(rc));
        exit(1);
    }
}

static void gb_save(const char *name, const void *buf, size_t n)
{
    static const char *const subs[] = {"spng_decode", "spng_decode_nocheck"};
    char path[4096];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", gb_dir, subs[i]);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/%s/%s", gb_dir, subs[i], name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
            fprintf(stderr, "mkseeds: cannot write %s\n", path);
            exit(1);
        }
    }
}

/* Encodes a W x H image of TYPE/DEPTH (CHANNELS samples a pixel) filled
 * with a pattern; PALETTE adds PLTE and tRNS, TEXT a tEXt chunk. */
static void gb_seed(const char *name, uint32_t w, uint32_t h, uint8_t depth, uint8_t type,
                    unsigned channels, int palette, int text)
{
    static unsigned char img[4096];
    size_t row = ((size_t)w * channels * depth + 7) / 8, len = row * h;
    for (size_t i = 0; i < len; i++)
        img[i] = (unsigned char)(i * 7u + i / row * 13u);
    if (palette)
        for (size_t i = 0; i < len; i++)
            img[i] &= 0x55; /* 2-bit indices 0 and 1 only: within the palette */
    spng_ctx *e = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!e)
        gb_check(SPNG_EMEM, "spng_ctx_new", name);
    gb_check(spng_set_option(e, SPNG_ENCODE_TO_BUFFER, 1), "SPNG_ENCODE_TO_BUFFER", name);
    struct spng_ihdr ihdr = {w, h, depth, type, 0, 0, 0};
    gb_check(spng_set_ihdr(e, &ihdr), "spng_set_ihdr", name);
    if (palette) {
        struct spng_plte plte = {0};
        plte.n_entries = 4;
        for (int i = 0; i < 4; i++) {
            plte.entries[i].red = (uint8_t)(i * 80);
            plte.entries[i].green = (uint8_t)(255 - i * 60);
            plte.entries[i].blue = (uint8_t)(i * 30);
        }
        gb_check(spng_set_plte(e, &plte), "spng_set_plte", name);
        struct spng_trns trns = {0};
        trns.n_type3_entries = 2;
        trns.type3_alpha[0] = 0;
        trns.type3_alpha[1] = 128;
        gb_check(spng_set_trns(e, &trns), "spng_set_trns", name);
    }
    if (text) {
        struct spng_text t;
        memset(&t, 0, sizeof t);
        strcpy(t.keyword, "Title");
        t.type = SPNG_TEXT;
        t.text = "glassbox seed";
        t.length = strlen(t.text);
        gb_check(spng_set_text(e, &t, 1), "spng_set_text", name);
    }
    gb_check(spng_encode_image(e, img, len, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE),
             "spng_encode_image", name);
    size_t n = 0;
    int err = 0;
    void *png = spng_get_png_buffer(e, &n, &err);
    gb_check(png ? 0 : err, "spng_get_png_buffer", name);
    gb_save(name, png, n);
    free(png);
    spng_ctx_free(e);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    gb_dir = argv[1];
    gb_seed("rgb8-text.png", 4, 3, 8, SPNG_COLOR_TYPE_TRUECOLOR, 3, 0, 1);
    gb_seed("rgba8.png", 3, 3, 8, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, 4, 0, 0);
    gb_seed("palette2-trns.png", 8, 2, 2, SPNG_COLOR_TYPE_INDEXED, 1, 1, 0);
    gb_seed("gray1.png", 9, 3, 1, SPNG_COLOR_TYPE_GRAYSCALE, 1, 0, 0);
    gb_seed("gray16.png", 5, 5, 16, SPNG_COLOR_TYPE_GRAYSCALE, 1, 0, 0);
    return 0;
}
