/* SPDX-License-Identifier: Apache-2.0 */
/* Table walks in the shape of libtiff's TIFFFindCODEC: one compare site
 * walks a table to its sentinel, comparing a 16-bit input value with each
 * entry's scheme. The input names a codec (bytes 2-3) and a second one
 * (bytes 0-1), looked up in two tables by one function, so both walks run
 * the same site. Most entries are codecs not built in, which all share one
 * init: flipping a compare to its entry finds nothing new after the first.
 * The crash is behind the 14th entry of the first table. The tables are
 * long, so that the walk's blocks run 128 times or more on every path and
 * a child that stops a walk early covers no new hit-count bucket either.
 * A back-off by (site, direction) alone skips the site from the first
 * table's 11th entry on: the first expansion skips the crash's flip,
 * and only a retry round, when the worklist runs dry (never, beside
 * AFL++), makes it. Each constant's first ask passes the back-off
 * (generational/sites.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct codec {
    const char *name;
    uint16_t scheme;
    int (*init)(const uint8_t *data, size_t size);
} codec_t;

static volatile int sink;

static int none(const uint8_t *data, size_t size)
{
    (void)data;
    sink = (int)size;
    return 0;
}

static int rle(const uint8_t *data, size_t size)
{
    (void)data;
    sink = (int)size + 1;
    return 0;
}

static int not_configured(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    sink = -1;
    return -1;
}

static int pixar(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    abort();
}

#define FIRST 150
#define SECOND 300
#define PIXAR 13

/* Filled on the first call: every entry a scheme of its own, not built
 * in, but the crash in `first` and two codecs in `second`. */
static codec_t first[FIRST + 1], second[SECOND + 1];

static void fill(void)
{
    for (int i = 0; i < FIRST; i++)
        first[i] = (codec_t){"nc", (uint16_t)(32768 + i), not_configured};
    first[PIXAR].init = pixar;
    for (int i = 0; i < SECOND; i++)
        second[i] = (codec_t){"nc", (uint16_t)(1 + i), not_configured};
    second[0].init = none;
    second[1].init = rle;
}

__attribute__((noinline)) static const codec_t *find(const codec_t *table, uint16_t scheme)
{
    for (const codec_t *c = table; c->name; c++)
        if (c->scheme == scheme)
            return c;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!first[0].name)
        fill();
    if (size < 4)
        return 0;
    const codec_t *a = find(first, (uint16_t)(data[2] | data[3] << 8));
    const codec_t *b = find(second, (uint16_t)(data[0] | data[1] << 8));
    int rc = b ? b->init(data + 4, size - 4) : 0;
    return a ? a->init(data + 4, size - 4) : rc;
}
