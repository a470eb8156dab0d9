/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtof's model, in binary32 (a float's fast path: at most 7
 * digits, one float division), and a float compare. Property: abort()
 * when the field parses to a float in (12.25, 12.375), e.g. "12.3"; the
 * seed parses to 17.5. */
// seed: 31 37 2e 35 3b 30
// pc-bytes: b0 b1 b3
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 4 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    float f = strtof(buf, NULL);
    printf("%.9g\n", (double)f);
    if (f > 12.25f && f < 12.375f)
        abort();
    return 0;
}
