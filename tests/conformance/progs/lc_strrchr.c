/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strrchr's model (the last match wins).
 * Property: abort() when the last '.' is at offset 4 (a 3-byte extension). */
// seed: 66 69 6c 65 6e 61 6d 65
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
    const char *p = strrchr(buf, '.');
    long at = p ? (long)(p - buf) : -1;
    printf("%ld\n", at);
    if (at == 4 && n == 8)
        abort();
    return 0;
}
