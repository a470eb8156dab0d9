/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: atoi's model (a call at -O0, strtol at -O2): its result is
 * the low 32 bits of the digits' value. Property: abort() on 443 from a
 * seed of 44. */
// seed: 34 34 61 61 61 61
// pc-bytes: b0 b1 b2
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
    int a = atoi(buf);
    printf("%d\n", a);
    if (a == 443)
        abort();
    return 0;
}
