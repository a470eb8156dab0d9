/* SPDX-License-Identifier: Apache-2.0 */
/* lz4 frame harness: the input is a sequence of LZ4 frames (and skippable
 * frames), decoded by LZ4F_decompress into a bounded buffer. Built twice:
 * by default every checksum present in a frame is verified (header, block
 * and content); with GB_LZ4_SKIP_CHECKSUMS=1 the block and content checksums
 * are skipped, as lz4's own fuzzers can do (the header checksum and the
 * magic stay checked in both). */
#include <stddef.h>
#include <stdint.h>

#include "lz4frame.h"

#ifndef GB_LZ4_SKIP_CHECKSUMS
#define GB_LZ4_SKIP_CHECKSUMS 0
#endif

/* 64 KiB of output per call, at most 16 calls: a frame of the largest
 * block size (4 MiB) is not decoded to the end, but its header, its first
 * blocks and every error path are; a run stays a few ms even traced. */
#define GB_LZ4_CHUNK 65536
#define GB_LZ4_MAX_CALLS 16

static volatile unsigned gb_lz4_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char out[GB_LZ4_CHUNK];
    LZ4F_dctx *dctx;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
        return 0;
    LZ4F_decompressOptions_t opt = {0};
    opt.skipChecksums = GB_LZ4_SKIP_CHECKSUMS;
    unsigned sum = 0;
    const uint8_t *src = data;
    size_t left = size;
    for (int i = 0; i < GB_LZ4_MAX_CALLS && left > 0; i++) {
        size_t dst_size = sizeof out, src_size = left;
        size_t hint = LZ4F_decompress(dctx, out, &dst_size, src, &src_size, &opt);
        if (LZ4F_isError(hint)) {
            sum ^= (unsigned)LZ4F_getErrorCode(hint) << 16;
            break;
        }
        for (size_t k = 0; k < dst_size; k += 256)
            sum = sum * 31u + out[k];
        src += src_size;
        left -= src_size;
        if (src_size == 0 && dst_size == 0)
            break; /* no progress: the frame wants more input than there is */
    }
    gb_lz4_sink = sum ^ (unsigned)left;
    LZ4F_freeDecompressionContext(dctx);
    return 0;
}
