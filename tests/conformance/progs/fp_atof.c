/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: atof's model (a call at -O0, strtod(s, NULL) at -O2) and an
 * equality compare on the parsed double. Property: abort() when the line
 * parses to exactly 3.25 ("3.25", "3.250", ...); the seed parses to 2.5. */
// seed: 32 2e 35 30 0a
// pc-bytes: b0 b2 b3
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
    double v = atof(buf);
    printf("%.17g\n", v);
    if (v == 3.25)
        abort();
    return 0;
}
