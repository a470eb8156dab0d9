/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtoull's model in base 8. Property: abort() on 0755. */
// seed: 31 39 61 61 61 61
// pc-bytes: b0 b1
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
    unsigned long long v = strtoull(buf, NULL, 8);
    printf("%llu\n", v);
    if (v == 0755)
        abort();
    return 0;
}
