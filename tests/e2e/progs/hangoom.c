/* SPDX-License-Identifier: Apache-2.0 */
/* 'H' first: loops forever. 'M' first: allocates without bound. Anything
 * else: a little parsing, so the search has something to do. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
volatile unsigned sink;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    if (d[0] == 'H')
        for (;;)
            sink++;
    if (d[0] == 'M')
        for (;;) {
            char *p = malloc(1 << 20);
            if (!p)
                abort();
            memset(p, 1, 1 << 20);
            sink += (unsigned)p[7];
        }
    if (d[1] == 'a' && n > 2 && d[2] == 'b')
        sink = 2;
    return 0;
}
