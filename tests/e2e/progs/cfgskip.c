/* SPDX-License-Identifier: Apache-2.0 */
/* For e2e.cfg: two diamonds and an abort behind a gate. Once the seeds
 * "AB." and "XY." cover both diamonds and one child reaches the abort,
 * every other flip leads only into covered code. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static volatile int g;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    if (d[0] == 'A')
        g += 1;
    else
        g += 2;
    if (d[1] == 'B')
        g += 3;
    else
        g += 4;
    if (d[2] == '!')
        abort();
    return 0;
}
