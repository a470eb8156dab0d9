/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strspn's model (the span ends at the first byte not in the
 * set, or the NUL). Property: abort() when the leading run of digits is
 * exactly 5 long. */
// seed: 31 32 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    size_t k = strspn(buf, "0123456789");
    printf("%zu\n", k);
    if (k == 5)
        abort();
    return 0;
}
