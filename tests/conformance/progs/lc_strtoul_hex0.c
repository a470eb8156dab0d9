/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a base-16 number that starts with '0' (not "0x"): the '0'
 * is a digit another input may change (the model's only prefix decision
 * is "0x here or not"). Property: abort() when the 8 hex digits are an
 * address in 0x1fffc000..0x1fffc00f; the seed is 08000000. */
// seed: 30 38 30 30 30 30 30 30 20
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 9 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    char *end;
    unsigned long a = strtoul(buf, &end, 16);
    printf("%lx\n", a);
    if (end == buf + 8 && a >= 0x1fffc000u && a < 0x1fffc010u)
        abort();
    return 0;
}
