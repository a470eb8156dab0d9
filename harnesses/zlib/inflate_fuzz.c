/* SPDX-License-Identifier: Apache-2.0 */
/* zlib inflate harness: the input is a zlib stream, inflated into a bounded
 * buffer; the Adler-32 of the output goes to a volatile sink so -O2 keeps
 * the work. Linked against a libz.a built by zlib's own configure && make. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zlib.h"

/* 64 KiB of output per chunk, at most 4 chunks: enough for any seed and
 * for the expansions, small enough that a run stays well under a second. */
#define GB_ZLIB_CHUNK 65536
#define GB_ZLIB_MAX_CHUNKS 4

static volatile uLong gb_zlib_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char out[GB_ZLIB_CHUNK];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK)
        return 0;
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)size;
    uLong sum = adler32(0L, Z_NULL, 0);
    for (int i = 0; i < GB_ZLIB_MAX_CHUNKS; i++) {
        s.next_out = out;
        s.avail_out = sizeof out;
        int rc = inflate(&s, Z_NO_FLUSH);
        sum = adler32(sum, out, (uInt)(sizeof out - s.avail_out));
        if (rc != Z_OK)
            break;
    }
    gb_zlib_sink = sum ^ s.total_out;
    inflateEnd(&s);
    return 0;
}
