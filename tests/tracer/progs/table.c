/* SPDX-License-Identifier: Apache-2.0 */
/* An input byte indexes a global array: a pin on the address and a bounds
 * CHECK entry (active property checking). The branch keeps the access in
 * bounds; the index expression alone could reach 255, so the check stays. */
#include <stdint.h>
#include <stdio.h>
static int table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n == 0 || d[0] >= 16)
        return 0;
    printf("%d\n", table[d[0]]);
    return 0;
}
