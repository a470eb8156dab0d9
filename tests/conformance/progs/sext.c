/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: sign extension and signed compares. Property: abort(). */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    int16_t a = (int8_t)d[0];
    int64_t b = (int16_t)(d[1] << 8 | d[0]);
    if (a < -100 && b < -20000 && b > -21000)
        abort();
    return 0;
}
