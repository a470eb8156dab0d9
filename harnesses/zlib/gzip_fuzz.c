/* SPDX-License-Identifier: Apache-2.0 */
/* zlib gzip harness: the input is a gzip member, inflated through
 * inflateInit2 with windowBits 31 (gzip only, so the header, its optional
 * fields and the CRC-32/ISIZE trailer are all checked), with the header's
 * extra field, name and comment captured by inflateGetHeader. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zlib.h"

#define GB_GZ_CHUNK 65536
#define GB_GZ_MAX_CHUNKS 4

static volatile uLong gb_gz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sum of what the header carried, so the captured fields are used. */
static uLong gb_gz_header_sum(const gz_header *h, int done)
{
    uLong sum = (uLong)h->text ^ (uLong)h->time ^ (uLong)h->os << 8 ^ (uLong)h->hcrc << 16;
    if (done > 0 && h->extra != Z_NULL)
        sum = crc32(sum, h->extra, h->extra_len < h->extra_max ? h->extra_len : h->extra_max);
    if (done > 0 && h->name != Z_NULL)
        sum ^= (uLong)strnlen((const char *)h->name, h->name_max);
    if (done > 0 && h->comment != Z_NULL)
        sum ^= (uLong)strnlen((const char *)h->comment, h->comm_max) << 4;
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char out[GB_GZ_CHUNK];
    static unsigned char extra[64], name[64], comment[64];
    z_stream s;
    gz_header h;
    memset(&s, 0, sizeof s);
    memset(&h, 0, sizeof h);
    if (inflateInit2(&s, 31) != Z_OK)
        return 0;
    h.extra = extra;
    h.extra_max = sizeof extra;
    h.name = name;
    h.name_max = sizeof name;
    h.comment = comment;
    h.comm_max = sizeof comment;
    if (inflateGetHeader(&s, &h) != Z_OK) {
        inflateEnd(&s);
        return 0;
    }
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)size;
    uLong sum = crc32(0L, Z_NULL, 0);
    int rc = Z_OK;
    for (int i = 0; i < GB_GZ_MAX_CHUNKS && rc == Z_OK; i++) {
        s.next_out = out;
        s.avail_out = sizeof out;
        rc = inflate(&s, Z_NO_FLUSH);
        sum = crc32(sum, out, (uInt)(sizeof out - s.avail_out));
    }
    gb_gz_sink = sum ^ s.total_out ^ gb_gz_header_sum(&h, h.done) ^ (uLong)(rc == Z_STREAM_END);
    inflateEnd(&s);
    return 0;
}
