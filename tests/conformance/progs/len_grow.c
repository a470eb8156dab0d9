/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: the input length is a variable (size of
 * LLVMFuzzerTestOneInput). Property: from a 2-byte seed, an input of
 * exactly 37 bytes whose last byte is 'Z' (growth, then a byte the grown
 * input did not have). */
// seed: 41 41
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    if (n == 37 && d[36] == 'Z')
        abort();
    printf("%zu\n", n);
    return 0;
}
