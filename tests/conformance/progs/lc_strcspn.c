/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strcspn's model (the span ends at the first byte of the
 * set, or the NUL). Property: abort() when a key before '=' or ';' is
 * exactly 4 bytes long and the input is longer than that. */
// seed: 61 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    size_t k = strcspn(buf, "=;");
    printf("%zu\n", k);
    if (k == 4 && n > 5)
        abort();
    return 0;
}
