/* SPDX-License-Identifier: Apache-2.0 */
/* A loop whose trip count is the input: the crash needs a run of at least
 * 40 'A's. No block is new after the first 'A' (the loop's counter is not
 * an input byte, so `run >= 40` is no flip); each step is one byte more,
 * found by growing the input. Only the hit-count buckets of the loop body
 * (4, 8, 16, 32) are new, so a search that values blocks alone backs the
 * growing flip off between them and stops. */
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t run = 0;
    while (run < size && data[run] == 'A')
        run++;
    if (run >= 40)
        abort();
    return 0;
}
