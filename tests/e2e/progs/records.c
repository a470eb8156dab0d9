/* SPDX-License-Identifier: Apache-2.0 */
/* Records of one kind in a row: 'R', a length, that many bytes and a
 * checksum (a byte sum seeded with 0x5a). The crash needs six valid 'R'
 * records in a row; the seed has one. Every record after the first runs
 * the same blocks, and after the fourth not even a hit-count bucket is
 * new: the search must value that a run reads further into the input. */
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    unsigned in_a_row = 0;
    while (off + 2 <= size) {
        uint8_t type = data[off], len = data[off + 1];
        if (size - off - 2 < (size_t)len + 1)
            return 0;
        uint8_t sum = 0x5a;
        for (size_t i = 0; i < len; i++)
            sum = (uint8_t)(sum + data[off + 2 + i]);
        if (sum != data[off + 2 + len])
            return 0;
        in_a_row = type == 'R' ? in_a_row + 1 : 0;
        if (in_a_row == 6)
            abort();
        off += 3u + len;
    }
    return 0;
}
