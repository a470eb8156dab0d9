/* SPDX-License-Identifier: Apache-2.0 */
/* A loop that tests every input byte at one site (an early exit, so it
 * stays a branch at -O2): back-off keeps the trace far smaller than the
 * input. */
#include <stdint.h>
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (d[i] != ' ') {
            printf("non-space at %zu\n", i);
            return 0;
        }
    puts("all spaces");
    return 0;
}
