/* SPDX-License-Identifier: Apache-2.0 */
/* libspng harness: the input is a PNG file, decoded from memory to RGBA8
 * with transparency applied (spng_decode_image), after the header and the
 * chunks before IDAT are read; then the text chunks are fetched. Images are
 * capped at 1024 pixels a side and 4 MiB decoded, chunks at 1 MiB.
 *
 * Built twice. By default every CRC and the zlib Adler-32 are checked, as
 * libspng ships. With GB_SPNG_NOCHECK=1 the context ignores Adler-32
 * (SPNG_CTX_IGNORE_ADLER32) and CRC errors are used (SPNG_CRC_USE for
 * critical and ancillary chunks), as libspng's own fuzzer reads. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "spng.h"

#ifndef GB_SPNG_NOCHECK
#define GB_SPNG_NOCHECK 0
#endif
#define GB_SPNG_MAX_SIDE 1024
#define GB_SPNG_MAX_OUT (4u << 20)

static volatile unsigned gb_spng_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned gb_spng_decode(spng_ctx *ctx)
{
    size_t len = 0;
    if (spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &len) != 0 || len > GB_SPNG_MAX_OUT)
        return 1;
    unsigned char *img = malloc(len ? len : 1);
    if (!img)
        return 2;
    unsigned sum = (unsigned)spng_decode_image(ctx, img, len, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    for (size_t i = 0; i < len; i += 61)
        sum = sum * 31u + img[i];
    free(img);
    uint32_t n = 0;
    if (spng_get_text(ctx, NULL, &n) == 0)
        sum += n;
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spng_ctx *ctx = spng_ctx_new(GB_SPNG_NOCHECK ? SPNG_CTX_IGNORE_ADLER32 : 0);
    if (!ctx)
        return 0;
#if GB_SPNG_NOCHECK
    spng_set_crc_action(ctx, SPNG_CRC_USE, SPNG_CRC_USE);
#endif
    spng_set_image_limits(ctx, GB_SPNG_MAX_SIDE, GB_SPNG_MAX_SIDE);
    spng_set_chunk_limits(ctx, 1u << 20, 4u << 20);
    unsigned sum = 0;
    struct spng_ihdr ihdr;
    if (spng_set_png_buffer(ctx, data, size) == 0 && spng_get_ihdr(ctx, &ihdr) == 0)
        sum = ihdr.width ^ ihdr.height << 4 ^ ihdr.color_type ^ gb_spng_decode(ctx);
    gb_spng_sink = sum;
    spng_ctx_free(ctx);
    return 0;
}
