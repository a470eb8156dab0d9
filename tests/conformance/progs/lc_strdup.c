/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strdup's and strndup's models give the new buffers the
 * source's shadows. Property: abort() when the copies start "D" and "UP". */
// seed: 61 61 61 61 61 61
// pc-bytes: b0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16];
    if (n < 4 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    char *a = strdup(buf), *b = strndup(buf + 2, 2);
    if (!a || !b)
        return 0;
    printf("%s %s\n", a, b);
    int hit = a[0] == 'D' && b[0] == 'U' && b[1] == 'P';
    free(a);
    free(b);
    if (hit)
        abort();
    return 0;
}
