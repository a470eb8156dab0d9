/* SPDX-License-Identifier: Apache-2.0 */
/* Seeds for the giflib harness, written by giflib's own encoder (EGifSpew,
 * linked against the asan build by harnesses/lib/debsrc.sh): a GIF87a image,
 * a GIF89a with a graphics control block (transparency, delay), an
 * interlaced image with a local color map and a comment, and a two-frame
 * animation with a NETSCAPE2.0 loop. Usage: mkseeds DIR (writes
 * DIR/gif_slurp/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gif_lib.h"

static FILE *gb_out;

static int gb_write(GifFileType *gif, const GifByteType *d, int n)
{
    (void)gif;
    return (int)fwrite(d, 1, (size_t)n, gb_out);
}

static void gb_fail(const char *what, int err)
{
    fprintf(stderr, "mkseeds: %s: %s\n", what, GifErrorString(err));
    exit(1);
}

static ColorMapObject *gb_map(int n)
{
    GifColorType c[8];
    for (int i = 0; i < n; i++) {
        c[i].Red = (GifByteType)(i * 36);
        c[i].Green = (GifByteType)(255 - i * 30);
        c[i].Blue = (GifByteType)(i * 90);
    }
    return GifMakeMapObject(n, c);
}

/* Adds a W x H frame at (x, y) whose pixels cycle through NCOLORS. */
static SavedImage *gb_frame(GifFileType *gif, int x, int y, int w, int h, int ncolors)
{
    SavedImage *im = GifMakeSavedImage(gif, NULL);
    if (!im)
        gb_fail("GifMakeSavedImage", D_GIF_ERR_NOT_ENOUGH_MEM);
    im->ImageDesc.Left = x;
    im->ImageDesc.Top = y;
    im->ImageDesc.Width = w;
    im->ImageDesc.Height = h;
    im->RasterBits = malloc((size_t)w * (size_t)h);
    for (int i = 0; i < w * h; i++)
        im->RasterBits[i] = (GifByteType)((i / 3 + i / w) % ncolors);
    return im;
}

/* EGifSpew writes and frees everything. */
static void gb_spew(const char *dir, const char *name, GifFileType *gif)
{
    int err = 0;
    if (EGifSpew(gif) != GIF_OK)
        gb_fail(name, gif->Error);
    (void)err;
    if (fclose(gb_out) != 0) {
        fprintf(stderr, "mkseeds: cannot write %s/%s\n", dir, name);
        exit(1);
    }
}

static GifFileType *gb_open(const char *dir, const char *name, int w, int h, int ncolors)
{
    char path[4096];
    int err = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gb_out = fopen(path, "wb");
    if (!gb_out) {
        fprintf(stderr, "mkseeds: cannot write %s\n", path);
        exit(1);
    }
    GifFileType *gif = EGifOpen(NULL, gb_write, &err);
    if (!gif)
        gb_fail("EGifOpen", err);
    gif->SWidth = w;
    gif->SHeight = h;
    gif->SColorResolution = 8;
    gif->SBackGroundColor = 0;
    gif->SColorMap = gb_map(ncolors);
    return gif;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/gif_slurp", argv[1]);
    mkdir(dir, 0755);

    GifFileType *g = gb_open(dir, "plain87a.gif", 6, 4, 2);
    gb_frame(g, 0, 0, 6, 4, 2);
    gb_spew(dir, "plain87a.gif", g);

    g = gb_open(dir, "gcb-transparent.gif", 8, 8, 4);
    gb_frame(g, 0, 0, 8, 8, 4);
    GraphicsControlBlock gcb = {DISPOSE_BACKGROUND, false, 25, 3};
    EGifGCBToSavedExtension(&gcb, g, 0);
    gb_spew(dir, "gcb-transparent.gif", g);

    g = gb_open(dir, "interlaced-local-map.gif", 10, 9, 2);
    SavedImage *im = gb_frame(g, 1, 1, 8, 7, 8);
    im->ImageDesc.Interlace = true;
    im->ImageDesc.ColorMap = gb_map(8);
    static unsigned char comment[] = "glassbox seed";
    GifAddExtensionBlock(&g->ExtensionBlockCount, &g->ExtensionBlocks, COMMENT_EXT_FUNC_CODE,
                         sizeof comment - 1, comment);
    gb_spew(dir, "interlaced-local-map.gif", g);

    g = gb_open(dir, "animated-loop.gif", 5, 5, 4);
    static unsigned char app[] = "NETSCAPE2.0", loop[] = {1, 0, 0};
    gb_frame(g, 0, 0, 5, 5, 4);
    gb_frame(g, 1, 1, 3, 3, 4);
    im = &g->SavedImages[0];
    GifAddExtensionBlock(&im->ExtensionBlockCount, &im->ExtensionBlocks,
                         APPLICATION_EXT_FUNC_CODE, sizeof app - 1, app);
    GifAddExtensionBlock(&im->ExtensionBlockCount, &im->ExtensionBlocks, CONTINUE_EXT_FUNC_CODE,
                         sizeof loop, loop);
    GraphicsControlBlock gcb2 = {DISPOSE_DO_NOT, false, 10, NO_TRANSPARENT_COLOR};
    EGifGCBToSavedExtension(&gcb2, g, 1);
    gb_spew(dir, "animated-loop.gif", g);
    return 0;
}
