/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: two byte compares on a branch. Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n >= 2 && d[0] == 'X' && d[1] == 'Y')
        abort();
    return 0;
}
