/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtol's model (decimal). The value is an expression of the
 * digits consumed and each digit/non-digit test is a branch, so the search
 * can lengthen "12" and ask for a number the seed does not have.
 * Property: abort() when the input starts with 31337. */
// seed: 31 32 61 62 63 64 65 66
// pc-bytes: b0 b1 b2
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
    long v = strtol(buf, NULL, 10);
    printf("%ld\n", v);
    if (v == 31337)
        abort();
    return 0;
}
