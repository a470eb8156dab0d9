/* SPDX-License-Identifier: Apache-2.0 */
/* Seeds for the zlib harnesses, made with zlib's own deflate (linked against
 * the asan build by harnesses/lib/debsrc.sh): zlib streams for
 * zlib_inflate and gzip members, with every optional header field, for
 * zlib_gzip. Usage: mkseeds DIR (writes DIR/zlib_inflate/, DIR/zlib_gzip/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "zlib.h"

static const char *gb_dir;

/* Deflates IN with LEVEL and windowBits WBITS (31: gzip, with header H)
 * into DIR/SUB/NAME; exits with a one-line error on failure. */
static void gb_seed(const char *sub, const char *name, const char *in, size_t n, int level,
                    int wbits, gz_header *h)
{
    static unsigned char out[4096];
    char path[4096];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, level, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY) != Z_OK ||
        (h && deflateSetHeader(&s, h) != Z_OK)) {
        fprintf(stderr, "mkseeds: deflateInit2 for %s failed\n", name);
        exit(1);
    }
    s.next_in = (Bytef *)in;
    s.avail_in = (uInt)n;
    s.next_out = out;
    s.avail_out = sizeof out;
    if (deflate(&s, Z_FINISH) != Z_STREAM_END) {
        fprintf(stderr, "mkseeds: deflate of %s did not finish in %zu bytes\n", name, sizeof out);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s", gb_dir, sub);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", gb_dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(out, 1, s.total_out, f) != s.total_out || fclose(f) != 0) {
        fprintf(stderr, "mkseeds: cannot write %s\n", path);
        exit(1);
    }
    deflateEnd(&s);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    gb_dir = argv[1];
    static const char fox[] = "The quick brown fox jumps over the lazy dog. "
                              "The quick brown fox jumps over the lazy dog.\n";
    static char mixed[300];
    unsigned r = 1;
    for (size_t i = 0; i < sizeof mixed; i++) { /* skewed letters: dynamic Huffman */
        r = r * 1103515245u + 12345u;
        mixed[i] = "aaaaaaaabbbbccd"[(r >> 16) % 15];
    }
    gb_seed("zlib_inflate", "hello.zz", "hello, hello, hello zlib\n", 25, 9, 15, NULL);
    gb_seed("zlib_inflate", "stored.zz", "abcdefgh", 8, 0, 15, NULL);
    gb_seed("zlib_inflate", "dynamic.zz", mixed, sizeof mixed, 9, 15, NULL);
    gb_seed("zlib_inflate", "small-window.zz", fox, sizeof fox - 1, 6, 9, NULL);

    gb_seed("zlib_gzip", "plain.gz", fox, sizeof fox - 1, 6, 31, NULL);
    gb_seed("zlib_gzip", "stored.gz", "abcdefgh", 8, 0, 31, NULL);
    gz_header h;
    memset(&h, 0, sizeof h);
    h.name = (Bytef *)"fox.txt";
    gb_seed("zlib_gzip", "named.gz", fox, sizeof fox - 1, 9, 31, &h);
    static unsigned char extra[] = {'G', 'b', 4, 0, 1, 2, 3, 4};
    memset(&h, 0, sizeof h);
    h.text = 1;
    h.time = 1700000000;
    h.os = 3;
    h.extra = extra;
    h.extra_len = sizeof extra;
    h.name = (Bytef *)"mixed.txt";
    h.comment = (Bytef *)"every optional field";
    h.hcrc = 1;
    gb_seed("zlib_gzip", "full.gz", mixed, sizeof mixed, 9, 31, &h);
    return 0;
}
