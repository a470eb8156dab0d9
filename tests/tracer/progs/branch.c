/* SPDX-License-Identifier: Apache-2.0 */
/* One byte compare: one branch entry on b0. */
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 0 && d[0] == 'X')
        abort();
    return 0;
}
