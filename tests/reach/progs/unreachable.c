/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: unreachable. Two checks in two functions
 * contradict each other: d[0] ^ d[1] == 0x5a needs the bytes to differ,
 * d[0] == d[1] needs them equal. No input reaches the target line. */
#include <stddef.h>
#include <stdint.h>

static volatile int sink;

/* The target's side effect, in a call the optimizer cannot merge away. */
__attribute__((noinline)) static void hit(int v)
{
    sink = v;
}

__attribute__((noinline)) static int mixed(const uint8_t *d)
{
    return (d[0] ^ d[1]) == 0x5a;
}

__attribute__((noinline)) static int same(const uint8_t *d)
{
    return d[0] == d[1];
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    if (mixed(d)) {
        if (same(d))
            hit(1); /* TARGET */
    }
    return 0;
}
