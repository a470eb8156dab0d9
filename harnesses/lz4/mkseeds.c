/* SPDX-License-Identifier: Apache-2.0 */
/* Seeds for the lz4 frame harnesses, made with lz4's own LZ4F_compressFrame
 * (linked against the asan build by harnesses/lib/debsrc.sh): one frame
 * per header option (block size, linked or independent blocks, block and
 * content checksums, content size), an incompressible block, and a
 * skippable frame before a frame. Usage: mkseeds DIR (writes DIR/lz4_frame/
 * and the same files in DIR/lz4_frame_nocheck/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lz4frame.h"

static const char *gb_dir;

static void gb_write(const char *name, const void *buf, size_t n)
{
    static const char *const subs[] = {"lz4_frame", "lz4_frame_nocheck"};
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

/* Compresses IN into a frame with PREFS, after PRE_N bytes of PRE. */
static void gb_seed(const char *name, const void *in, size_t n, const LZ4F_preferences_t *prefs,
                    const void *pre, size_t pre_n)
{
    static unsigned char out[8192];
    size_t bound = LZ4F_compressFrameBound(n, prefs);
    if (pre_n + bound > sizeof out) {
        fprintf(stderr, "mkseeds: %s needs %zu bytes, have %zu\n", name, pre_n + bound, sizeof out);
        exit(1);
    }
    memcpy(out, pre, pre_n);
    size_t r = LZ4F_compressFrame(out + pre_n, sizeof out - pre_n, in, n, prefs);
    if (LZ4F_isError(r)) {
        fprintf(stderr, "mkseeds: LZ4F_compressFrame for %s: %s\n", name, LZ4F_getErrorName(r));
        exit(1);
    }
    gb_write(name, out, pre_n + r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    gb_dir = argv[1];
    static char text[1200], noise[300];
    static const char line[] = "lz4 frame seed: the same words again and again. ";
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = line[i % (sizeof line - 1)];
    unsigned r = 7;
    for (size_t i = 0; i < sizeof noise; i++) {
        r = r * 1103515245u + 12345u;
        noise[i] = (char)(r >> 16);
    }
    LZ4F_preferences_t p;
    memset(&p, 0, sizeof p);
    gb_seed("default.lz4", text, sizeof text, &p, "", 0);

    memset(&p, 0, sizeof p);
    p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    p.frameInfo.contentSize = sizeof text;
    gb_seed("content-checksum-size.lz4", text, sizeof text, &p, "", 0);

    memset(&p, 0, sizeof p);
    p.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
    p.frameInfo.blockMode = LZ4F_blockIndependent;
    p.frameInfo.blockSizeID = LZ4F_max64KB;
    gb_seed("block-checksum.lz4", text, 400, &p, "", 0);

    memset(&p, 0, sizeof p);
    p.frameInfo.blockSizeID = LZ4F_max256KB;
    p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    gb_seed("incompressible.lz4", noise, sizeof noise, &p, "", 0);

    memset(&p, 0, sizeof p);
    p.compressionLevel = 9; /* lz4hc */
    p.frameInfo.blockSizeID = LZ4F_max1MB;
    static const unsigned char skip[] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'G', 'b', 'o', 'x'};
    gb_seed("skippable-then-hc.lz4", text, 600, &p, skip, sizeof skip);
    return 0;
}
