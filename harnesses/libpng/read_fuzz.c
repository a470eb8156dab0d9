/* SPDX-License-Identifier: Apache-2.0 */
/* libpng read harness: the input is a PNG file, read with the classic API
 * from memory and decoded to 8-bit RGBA (palette, gray, tRNS, 16-bit and
 * interlaced images all expanded), row by row, then png_read_end for the
 * chunks after IDAT. Width and height are capped so one input stays small.
 *
 * Built twice. By default every CRC and the zlib Adler-32 are checked, as
 * libpng ships. With GB_PNG_NOCHECK=1, CRC errors are ignored and the data
 * used, and Adler-32 is not checked (PNG_IGNORE_ADLER32), as libpng's own
 * fuzzer does. Errors longjmp back here; warnings are silenced. */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

#ifndef GB_PNG_NOCHECK
#define GB_PNG_NOCHECK 0
#endif
#define GB_PNG_MAX_SIDE 1024
#define GB_PNG_MAX_PIXELS (256u * 1024u)

static volatile unsigned gb_png_sink;

/* The input and what the read allocated: in memory, not in locals, so
 * their values survive png_error's longjmp. */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
    png_bytep row;
    unsigned sum;
} gb_png_src_t;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void gb_png_read(png_structp png, png_bytep out, size_t n)
{
    gb_png_src_t *src = png_get_io_ptr(png);
    if (n > src->size - src->pos)
        png_error(png, "read past the end of the input");
    memcpy(out, src->data + src->pos, n);
    src->pos += n;
}

static void gb_png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Transforms to 8-bit RGBA, whatever the color type and depth. */
static void gb_png_to_rgba(png_structp png, png_infop info)
{
    int type = png_get_color_type(png, info);
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(png);
    png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        return 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, gb_png_warn);
    if (!png)
        return 0;
    png_infop info = png_create_info_struct(png);
    gb_png_src_t src = {data, size, 0, NULL, 0};
    if (!info || setjmp(png_jmpbuf(png))) {
        free(src.row);
        png_destroy_read_struct(&png, &info, NULL);
        gb_png_sink = src.sum ^ (unsigned)src.pos;
        return 0;
    }
    png_set_user_limits(png, GB_PNG_MAX_SIDE, GB_PNG_MAX_SIDE);
    png_set_chunk_malloc_max(png, 1u << 20);
#if GB_PNG_NOCHECK
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_read_fn(png, &src, gb_png_read);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((uint64_t)w * h > GB_PNG_MAX_PIXELS)
        png_error(png, "image too large for the harness");
    gb_png_to_rgba(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    src.row = malloc(rowbytes ? rowbytes : 1);
    if (!src.row)
        png_error(png, "out of memory");
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (png_uint_32 y = 0; y < h; y++) {
            png_read_row(png, src.row, NULL);
            src.sum = src.sum * 31u + src.row[0] + src.row[rowbytes ? rowbytes - 1 : 0];
        }
    png_read_end(png, info);
    free(src.row);
    png_destroy_read_struct(&png, &info, NULL);
    gb_png_sink = src.sum;
    return 0;
}
