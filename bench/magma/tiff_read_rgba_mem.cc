/* SPDX-License-Identifier: Apache-2.0 */
/* Magma's tiff_read_rgba_fuzzer with the input read from memory through
 * TIFFClientOpen instead of std::istringstream and TIFFStreamOpen: the
 * stream copies the input inside libstdc++, which is not instrumented, so
 * a trace build of Magma's harness loses every input byte (only the size
 * stays symbolic). The checks and calls after the open are Magma's. */
#include <stdint.h>
#include <string.h>
#include <tiffio.h>

struct gb_mem {
    const uint8_t *data;
    uint64_t size, pos;
};

static tmsize_t gb_mem_read(thandle_t h, void *buf, tmsize_t n)
{
    gb_mem *m = (gb_mem *)h;
    uint64_t left = m->pos < m->size ? m->size - m->pos : 0;
    uint64_t k = (uint64_t)n < left ? (uint64_t)n : left;
    memcpy(buf, m->data + m->pos, (size_t)k);
    m->pos += k;
    return (tmsize_t)k;
}

static tmsize_t gb_mem_write(thandle_t, void *, tmsize_t)
{
    return -1; /* read-only, as the stream harness's istream */
}

/* Like an istringstream: a seek outside [0, size] fails. */
static uint64_t gb_mem_seek(thandle_t h, uint64_t off, int whence)
{
    gb_mem *m = (gb_mem *)h;
    uint64_t base = whence == SEEK_CUR ? m->pos : whence == SEEK_END ? m->size : 0;
    uint64_t to = base + off;
    if (to > m->size)
        return (uint64_t)-1;
    m->pos = to;
    return to;
}

static int gb_mem_close(thandle_t)
{
    return 0;
}

static uint64_t gb_mem_size(thandle_t h)
{
    return ((gb_mem *)h)->size;
}

static int gb_mem_map(thandle_t, void **, toff_t *)
{
    return 0;
}

static void gb_mem_unmap(thandle_t, void *, toff_t)
{
}

static void gb_quiet(const char *, const char *, va_list)
{
}

#define GB_MAX_SIZE 500000000u

/* a * b, or 0 when it overflows 32 bits (the harness's __TIFFSafeMultiply) */
static uint32_t gb_mul32(uint32_t a, uint32_t b)
{
    return b != 0 && (uint32_t)(a * b) / b != a ? 0 : a * b;
}

static void gb_read_rgba(TIFF *tif)
{
    uint32_t w = 0, h = 0, tilewidth = 0, imagewidth = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    uint64_t bufsize = TIFFTileSize64(tif);
    if (bufsize > GB_MAX_SIZE || bufsize == 0)
        return;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tilewidth);
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &imagewidth);
    uint32_t tilewidth2 = gb_mul32(tilewidth, 2);
    imagewidth = gb_mul32(imagewidth, 2);
    /* the fax3 OOM guard of the stream harness, in its 32-bit arithmetic */
    if ((uint32_t)(tilewidth2 * 2) > GB_MAX_SIZE || (uint32_t)(imagewidth * 2) > GB_MAX_SIZE ||
        (tilewidth != 0 && tilewidth2 == 0) || imagewidth == 0)
        return;
    uint32_t size = gb_mul32(w, h);
    if (size > GB_MAX_SIZE || size == 0)
        return;
    uint32_t *raster = (uint32_t *)_TIFFmalloc((tmsize_t)size * sizeof(uint32_t));
    if (raster != NULL) {
        TIFFReadRGBAImage(tif, w, h, raster, 0);
        _TIFFfree(raster);
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TIFFSetErrorHandler(gb_quiet);
    TIFFSetWarningHandler(gb_quiet);
    gb_mem m = {data, size, 0};
    TIFF *tif = TIFFClientOpen("MemTIFF", "rm", (thandle_t)&m, gb_mem_read, gb_mem_write, gb_mem_seek,
                               gb_mem_close, gb_mem_size, gb_mem_map, gb_mem_unmap);
    if (!tif)
        return 0;
    gb_read_rgba(tif);
    TIFFClose(tif);
    return 0;
}
