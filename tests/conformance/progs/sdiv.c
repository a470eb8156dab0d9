/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: signed division and remainder of sign-extended bytes.
 * Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    int a = (int8_t)d[0], b = (int8_t)d[1] | 1;
    if (a / b == -5 && a % b == -2 && b > 3)
        abort();
    return 0;
}
