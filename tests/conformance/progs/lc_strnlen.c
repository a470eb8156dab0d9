/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strnlen's model (an ite chain over the bytes before the
 * terminator or the limit). Property: abort() when strnlen(buf, 6) is 3. */
// seed: 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    size_t k = strnlen(buf, 6);
    printf("%zu\n", k);
    if (k == 3)
        abort();
    return 0;
}
