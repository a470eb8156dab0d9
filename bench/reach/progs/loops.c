/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: targets behind loops over the input. */
#include "reach_bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    unsigned xs = 0, sum = 0, run = 1, best = 1;
    size_t m = n < 32 ? n : 32;
    for (size_t i = 0; i < m; i++) {
        xs += d[i] == 'x';
        sum += d[i];
        run = i && d[i] == d[i - 1] ? run + 1 : 1;
        best = run > best ? run : best;
    }
    if (xs >= 3)
        TARGET(1);
    if (m >= 4 && sum == 1000)
        TARGET(2);
    if (best >= 5 && d[0] == '#')
        TARGET(3);
    size_t e = 0;
    while (e < m && d[e] != 'E')
        e++;
    if (e == 6)
        TARGET(4);
    unsigned pairs = 0;
    for (size_t i = 0; i + 1 < m; i += 2)
        pairs += d[i] == 'p' && d[i + 1] == 'q';
    if (pairs == 2)
        TARGET(5);
    return 0;
}
