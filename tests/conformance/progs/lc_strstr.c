/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strstr's model. Property: abort() when "GBX" first occurs
 * at offset 2. */
// seed: 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 6 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    const char *p = strstr(buf, "GBX");
    long at = p ? (long)(p - buf) : -1;
    printf("%ld\n", at);
    if (at == 2)
        abort();
    return 0;
}
