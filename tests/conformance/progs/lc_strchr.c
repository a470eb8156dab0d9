/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strchr's model (a match or the NUL ends the scan).
 * Property: abort() when the first '=' is at offset 3. */
// seed: 6b 65 79 76 61 6c 75 65
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
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
    const char *p = strchr(buf, '=');
    long at = p ? (long)(p - buf) : -1;
    printf("%ld\n", at);
    if (at == 3)
        abort();
    return 0;
}
