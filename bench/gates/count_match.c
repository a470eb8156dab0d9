/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a record count in the header that must equal the records actually present (as
 * ZIP's end record and many index tables require); the entry table behind it is fixed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "GBCT", count (LE16), then records to the end: length, type, payload[length]. */
enum { CM_HDR_LEN = 6, CM_MAX_ENTRIES = 8 };

static volatile uint32_t cm_sink;

/* The records found, -1 unless they tile the rest of the file exactly. */
static long cm_walk(const uint8_t *p, size_t n)
{
    size_t off = 0;
    long count = 0;
    while (off < n) {
        if (n - off < 2 || p[off] > n - off - 2)
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
    long count = data[4] | data[5] << 8;
    const uint8_t *p = data + CM_HDR_LEN;
    if (cm_walk(p, size - CM_HDR_LEN) != count)
        return 0;
    /* The bug: the count was checked against the file but not against the table (abort
     * stands for the write past entries[]). */
    if (count > CM_MAX_ENTRIES)
        abort();
    uint8_t entries[CM_MAX_ENTRIES];
    for (long i = 0, off = 0; i < count; i++, off += 2 + p[off])
        entries[i] = p[off + 1];
    for (long i = 0; i < count; i++)
        cm_sink += entries[i];
    return 0;
}
