/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtod's model (the plain decimal form, Clinger's fast
 * path) and the compares after it. The value is N / 10^k over the digits
 * in Z3's FP theory, so the search can solve a range compare on the
 * parsed double. Property: abort() when the field parses to a value in
 * (1000.5, 1000.75), e.g. "1000.6"; the seed parses to 1234.5. */
// seed: 31 32 33 34 2e 35 20 78
// pc-bytes: b0 b1 b2 b3 b5
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 6 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    char *end;
    double v = strtod(buf, &end);
    printf("%.17g %d\n", v, (int)(end - buf));
    if (v > 1000.5 && v < 1000.75)
        abort();
    return 0;
}
