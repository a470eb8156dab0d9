/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: reachable only beyond a small bound. The
 * target needs four 'x' bytes, so the loop's test runs at least five
 * times: with --unroll 3 no bounded path reaches it (the verdict must say
 * K=3), with --unroll 8 it is reached. */
#include <stddef.h>
#include <stdint.h>

static volatile int sink;

/* The target's side effect, in a call the optimizer cannot merge away. */
__attribute__((noinline)) static void hit(int v)
{
    sink = v;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    int count = 0;
    for (size_t i = 0; i < n && i < 16; i++)
        if (d[i] == 'x')
            count++;
    if (count >= 4)
        hit(1); /* TARGET */
    return 0;
}
