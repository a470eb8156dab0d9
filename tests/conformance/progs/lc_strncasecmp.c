/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strncasecmp's model (only the first n bytes count).
 * Property: abort() when the input starts with "get " in any case. */
// seed: 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    int r = strncasecmp(buf, "GET /", 4);
    printf("%d\n", r == 0);
    if (r == 0)
        abort();
    return 0;
}
