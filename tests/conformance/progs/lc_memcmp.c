/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: memcmp's and bcmp's models on a magic that is not at the
 * start. Property: abort() when bytes 2..5 are "GBX1". */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b2 b3 b4 b5
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char magic[4] = {'G', 'B', 'X', '1'};
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    int c = memcmp(d + 2, magic, sizeof magic);
    printf("%d\n", (c > 0) - (c < 0)); /* only the sign is specified */
    if (c == 0)
        abort();
    return 0;
}
