/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: values the tracer does not track (here long double, x87's
 * 80 bits) are concretised with recorded pins, never silently. Property:
 * the gate needs d[1] == 'G' reached only when the long double computed
 * from d[0] passes a threshold: the search may not change d[0] (pinned at
 * the int-to-long-double conversion) while solving for d[1], so the child
 * keeps the path through the compare. */
// seed: 64 00
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    long double scale = d[0] / 4.0L; /* 100 -> 25.0 */
    if (scale > 20.0L && scale < 30.0L) {
        if (d[1] == 'G' && (d[0] & 1) == 0)
            abort();
        puts("in range");
    }
    printf("%.2Lf\n", scale);
    return 0;
}
