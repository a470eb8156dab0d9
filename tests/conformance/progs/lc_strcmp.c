/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strcmp's and strncmp's models (at -O2 clang may turn them
 * into bcmp or byte compares; each must still constrain the bytes).
 * Property: abort() when the input is "open" and its first 3 bytes, as a
 * string of their own, compare equal to "ope". */
// seed: 61 61 61 61
// pc-bytes: b0 b1 b2 b3
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    int whole = strcmp(buf, "open"), head = strncmp(buf, "ope", 3);
    printf("%d %d\n", (whole > 0) - (whole < 0), (head > 0) - (head < 0)); /* signs only */
    if (whole == 0 && head == 0)
        abort();
    return 0;
}
