/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strcasecmp's model: equality of case-folded bytes.
 * Property: abort() when the input is "hello" in any case. */
// seed: 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4
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
    int r = strcasecmp(buf, "HeLlO");
    printf("%d\n", r == 0);
    if (r == 0)
        abort();
    return 0;
}
