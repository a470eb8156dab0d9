/* SPDX-License-Identifier: Apache-2.0 */
/* The SAGE lecture example: four independent byte tests, abort when three or more hold.
 * From the seed "good", generational search runs 16 paths, 5 of which abort. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One `if` per byte, as in the lecture, so that each test is its own branch to flip. */
static void top(const char in[4])
{
    int cnt = 0;
    if (in[0] == 'b')
        cnt++;
    if (in[1] == 'a')
        cnt++;
    if (in[2] == 'd')
        cnt++;
    if (in[3] == '!')
        cnt++;
    if (cnt >= 3)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4)
        top((const char *)data);
    return 0;
}
