/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a big-endian 64-bit compare: like ZFS, a pool label's uberblocks carry a 64-bit
 * magic in the writer's byte order, and the reader tries both. The seed is little-endian;
 * the rarely run big-endian path has the bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Uberblock: magic, version, txg, guid sum; 64 bits each, in the writer's order. */
enum { UB_LEN = 32, UB_NVERSIONS = 8 };
#define UB_MAGIC 0x00bab10cull
#define UB_VERSION_MAX 5000ull

static volatile uint64_t ub_sink;

static uint64_t ub_rd64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t ub_rd64be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void ub_use(uint64_t version, uint64_t txg)
{
    if (version > UB_VERSION_MAX)
        return;
    ub_sink += txg + version;
}

/* The bug: the swapped path reads the version in host order and indexes the feature
 * table with its top byte (abort stands for the read past that table). */
static void ub_use_swapped(const uint8_t *p)
{
    uint64_t version = ub_rd64le(p + 8);
    if ((version >> 56) >= UB_NVERSIONS)
        abort();
    ub_use(ub_rd64be(p + 8), ub_rd64be(p + 16));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t off = 0; size - off >= UB_LEN; off += UB_LEN) {
        const uint8_t *p = data + off;
        if (ub_rd64le(p) == UB_MAGIC)
            ub_use(ub_rd64le(p + 8), ub_rd64le(p + 16));
        else if (ub_rd64be(p) == UB_MAGIC)
            ub_use_swapped(p);
    }
    return 0;
}
