/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: abs, min and max (llvm.abs, smin, smax, umin, umax at -O2).
 * Property: abort() reached. */
// seed: 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    int a = (int8_t)d[0], b = (int8_t)d[1];
    if (abs(a) == 100 && imin(a, b) == -100 && imax(a, b) == 20 &&
        umin(d[2], d[3]) == 7 && umax(d[2], d[3]) == 250)
        abort();
    return 0;
}
