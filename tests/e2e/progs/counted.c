/* SPDX-License-Identifier: Apache-2.0 */
/* A count field: a header byte says how many 2-byte items follow, and
 * each item must be an ascending key. The crash needs a header count of
 * 24 or more with every item present and valid; the seed declares one
 * item. Raising the count alone reads past the end: each further item
 * must be grown and made valid in turn, on blocks the first item covered,
 * and past the tracer's back-off budget of a site (16 hits). */
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || data[0] != 'N')
        return 0;
    unsigned count = data[1], prev = 0;
    for (unsigned i = 0; i < count; i++) {
        size_t at = 2 + 2 * (size_t)i;
        if (at + 2 > size)
            return 0;
        unsigned key = (unsigned)data[at] << 8 | data[at + 1];
        if (key <= prev)
            return 0;
        prev = key;
    }
    if (count >= 24)
        abort();
    return 0;
}
