/* SPDX-License-Identifier: Apache-2.0 */
/* Branches, then a segfault: the trace keeps its prefix and says how the run
 * ended. */
#include <stdint.h>
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 1 && d[0] == 'C' && d[1] == 'R') {
        volatile int *p = (volatile int *)(uintptr_t)16;
        *p = 1;
    }
    return 0;
}
