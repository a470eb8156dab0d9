/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, wide product): a record count and a record size, 64 bits each
 * (little-endian), multiplied into 128 bits; the high word must be exactly 1 and the low
 * word under 4096: the size a 64-bit multiplication would have wrapped to. The seed's
 * product is small. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t mh_sink;

static uint64_t mh_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The bug: an allocation sized by the wrapped low word (abort stands for the records
 * written past it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 20 || memcmp(data, "RECS", 4) != 0)
        return 0;
    uint64_t count = mh_le64(data + 4), each = mh_le64(data + 12);
    unsigned __int128 total = (unsigned __int128)count * each;
    uint64_t hi = (uint64_t)(total >> 64), lo = (uint64_t)total;
    if (hi == 1 && lo < 4096)
        abort();
    mh_sink += hi ? 0 : lo;
    return 0;
}
