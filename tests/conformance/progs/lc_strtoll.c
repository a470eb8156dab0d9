/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtoll's model in base 0: white space, the sign and the
 * 0x / 0 prefixes are decisions too. Property: abort() on -4096 (written
 * in any base the input picks). */
// seed: 2d 37 61 61 61 61
// pc-bytes: b0 b1 b2
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 5 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    long long v = strtoll(buf, NULL, 0);
    printf("%lld\n", v);
    if (v == -4096)
        abort();
    return 0;
}
