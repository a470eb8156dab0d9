/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: record counts that must equal the records actually present, as ZIP's end record
 * requires (entries on this disk, total entries and directory size all agree with the
 * directory); the entry table behind them has a fixed size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "GBCT", entries here, entries in total, directory size (LE16 each), then the directory:
 * records of length, type (not 0), payload[length], to the end of the file. */
enum { CM_HDR_LEN = 10, CM_MAX_ENTRIES = 8 };

static volatile uint32_t cm_sink;

static uint16_t cm_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* The records found, -1 unless they are well formed and tile the directory exactly. */
static long cm_walk(const uint8_t *p, size_t n)
{
    size_t off = 0;
    long count = 0;
    while (off < n) {
        if (n - off < 2 || p[off] > n - off - 2 || p[off + 1] == 0)
            return -1;
        off += 2u + p[off];
        count++;
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < CM_HDR_LEN || memcmp(data, "GBCT", 4) != 0)
        return 0;
    long here = cm_rd16(data + 4), total = cm_rd16(data + 6);
    size_t dir = cm_rd16(data + 8);
    const uint8_t *p = data + CM_HDR_LEN;
    if (here != total || dir != size - CM_HDR_LEN || cm_walk(p, dir) != total)
        return 0; /* multi-volume or inconsistent: not handled */
    /* The bug: the count was checked against the directory but not against the table
     * (abort stands for the write past entries[]). */
    if (total > CM_MAX_ENTRIES)
        abort();
    uint8_t entries[CM_MAX_ENTRIES];
    for (long i = 0, off = 0; i < total; i++, off += 2 + p[off])
        entries[i] = p[off + 1];
    for (long i = 0; i < total; i++)
        cm_sink += entries[i];
    return 0;
}
