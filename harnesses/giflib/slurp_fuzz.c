/* SPDX-License-Identifier: Apache-2.0 */
/* giflib harness: the input is a GIF file, opened from memory with DGifOpen
 * and a read callback, then read whole by DGifSlurp: screen descriptor,
 * global and local color maps, image descriptors, interlaced and plain LZW
 * rasters, every extension block. Each image's graphics control block is
 * decoded and its raster summed. Screens over 4096 pixels a side are
 * refused before DGifSlurp allocates. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gif_lib.h"

#define GB_GIF_MAX_SIDE 4096

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} gb_gif_src_t;

static volatile unsigned gb_gif_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* giflib's InputFunc: copies up to N bytes, returns how many. */
static int gb_gif_read(GifFileType *gif, GifByteType *out, int n)
{
    gb_gif_src_t *src = gif->UserData;
    size_t left = src->size - src->pos;
    size_t k = n < 0 ? 0 : (size_t)n;
    if (k > left)
        k = left;
    memcpy(out, src->data + src->pos, k);
    src->pos += k;
    return (int)k;
}

static unsigned gb_gif_image(GifFileType *gif, int i)
{
    const SavedImage *im = &gif->SavedImages[i];
    GraphicsControlBlock gcb;
    unsigned sum = (unsigned)im->ImageDesc.Width * 3u + (unsigned)im->ImageDesc.Height;
    if (DGifSavedExtensionToGCB(gif, i, &gcb) == GIF_OK)
        sum ^= (unsigned)gcb.DelayTime ^ (unsigned)gcb.TransparentColor << 8 ^
               (unsigned)gcb.DisposalMode << 16;
    size_t n = (size_t)im->ImageDesc.Width * (size_t)im->ImageDesc.Height;
    for (size_t k = 0; im->RasterBits && k < n; k += 64)
        sum = sum * 31u + im->RasterBits[k];
    for (int e = 0; e < im->ExtensionBlockCount; e++)
        sum += (unsigned)im->ExtensionBlocks[e].Function + (unsigned)im->ExtensionBlocks[e].ByteCount;
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_gif_src_t src = {data, size, 0};
    int err = 0;
    GifFileType *gif = DGifOpen(&src, gb_gif_read, &err);
    if (!gif) {
        gb_gif_sink = (unsigned)err;
        return 0;
    }
    unsigned sum = 0;
    if (gif->SWidth <= GB_GIF_MAX_SIDE && gif->SHeight <= GB_GIF_MAX_SIDE &&
        DGifSlurp(gif) == GIF_OK) {
        for (int i = 0; i < gif->ImageCount; i++)
            sum ^= gb_gif_image(gif, i);
        sum += (unsigned)gif->ExtensionBlockCount + (unsigned)gif->SBackGroundColor;
    }
    sum ^= (unsigned)gif->Error << 24;
    DGifCloseFile(gif, &err);
    gb_gif_sink = sum;
    return 0;
}
