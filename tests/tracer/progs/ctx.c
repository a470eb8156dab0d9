/* SPDX-License-Identifier: Apache-2.0 */
/* One helper, one branch site, two callers that each loop over half of
 * the input: back-off keyed by (site, calling context) gives each caller
 * its own budget, so the second loop's first bytes are recorded too.
 * Keyed by site alone they would be dropped (tracer.sh checks both). */
#include <stdint.h>
#include <stdio.h>
static unsigned found;
static __attribute__((noinline)) void check(uint8_t b)
{
    if (b == 'x') { /* a call keeps it a branch at -O2 */
        found++;
        puts("x");
    }
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    size_t half = n / 2;
    for (size_t i = 0; i < half; i++)
        check(d[i]);
    for (size_t i = half; i < n; i++)
        check(d[i]);
    printf("%u\n", found);
    return 0;
}
