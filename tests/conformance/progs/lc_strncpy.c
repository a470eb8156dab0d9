/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strncpy's model moves the copied bytes' shadows (and pads
 * with concrete zeros). Property: abort() when the copy starts "QZ". */
// seed: 61 61 61 61 61 61
// pc-bytes: b0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16], dst[12];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    strncpy(dst, buf, sizeof dst);
    printf("%d %d\n", dst[0], dst[sizeof dst - 1]);
    if (dst[0] == 'Q' && dst[1] == 'Z')
        abort();
    return 0;
}
