/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: the divisor-zero condition is a branch of its own.
 * Property: SIGFPE from dividing by (d[0] - 'a'). */
// seed: 30 30
#include <stdint.h>
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    int q = 1000 / (d[0] - 'a');
    printf("%d\n", q);
    return 0;
}
