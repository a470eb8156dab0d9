/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a switch on a 32-bit record tag with many cases (as TIFF tags, ID3 frames and RIFF
 * FourCCs are dispatched); only the colour-map case has the bug and the seed has none. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records: tag (LE32, a FourCC), length (LE16), value. */
#define TS_TAG(a, b, c, d)                                                                         \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
enum { TS_REC_HDR = 6, TS_CMAP_MAX = 48 };

typedef struct ts_image {
    uint32_t width, height, depth, comp, xres, yres, orient, planes;
    uint8_t cmap[TS_CMAP_MAX];
    uint32_t text;
} ts_image_t;

static volatile uint32_t ts_sink;

static uint32_t ts_rd32(const uint8_t *p, size_t n)
{
    if (n < 4)
        return 0;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The bug: the colour map is copied without checking it fits 16 RGB entries (abort stands
 * for the overflow). */
static void ts_cmap(ts_image_t *im, const uint8_t *p, size_t n)
{
    if (n > TS_CMAP_MAX)
        abort();
    memcpy(im->cmap, p, n);
}

static void ts_record(ts_image_t *im, uint32_t tag, const uint8_t *p, size_t n)
{
    switch (tag) {
    case TS_TAG('W', 'D', 'T', 'H'):
        im->width = ts_rd32(p, n);
        break;
    case TS_TAG('H', 'G', 'H', 'T'):
        im->height = ts_rd32(p, n);
        break;
    case TS_TAG('B', 'P', 'S', ' '):
        im->depth = ts_rd32(p, n);
        break;
    case TS_TAG('C', 'O', 'M', 'P'):
        im->comp = ts_rd32(p, n);
        break;
    case TS_TAG('X', 'R', 'E', 'S'):
        im->xres = ts_rd32(p, n);
        break;
    case TS_TAG('Y', 'R', 'E', 'S'):
        im->yres = ts_rd32(p, n);
        break;
    case TS_TAG('O', 'R', 'N', 'T'):
        im->orient = ts_rd32(p, n);
        break;
    case TS_TAG('P', 'L', 'N', 'S'):
        im->planes = ts_rd32(p, n);
        break;
    case TS_TAG('D', 'E', 'S', 'C'):
    case TS_TAG('A', 'R', 'T', 'S'):
    case TS_TAG('S', 'O', 'F', 'T'):
    case TS_TAG('D', 'A', 'T', 'E'):
        im->text += (uint32_t)n;
        break;
    case TS_TAG('C', 'M', 'A', 'P'):
        ts_cmap(im, p, n);
        break;
    default:
        break; /* private tags are skipped */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || memcmp(data, "GBTG", 4) != 0)
        return 0;
    ts_image_t im = {0};
    size_t off = 4;
    while (size - off >= TS_REC_HDR) {
        uint32_t tag = ts_rd32(data + off, 4);
        size_t n = (size_t)(data[off + 4] | data[off + 5] << 8);
        if (n > size - off - TS_REC_HDR)
            return 0;
        ts_record(&im, tag, data + off + TS_REC_HDR, n);
        off += TS_REC_HDR + n;
    }
    ts_sink += im.width * im.height + im.text;
    return 0;
}
