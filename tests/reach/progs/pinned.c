/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth, for honesty: the target is unreachable
 * (d[1] ^ d[2] == 0x5a and d[1] == d[2] contradict each other), but the run first stores through a symbolic
 * index, which the tracer pins to its concrete value (a PIN entry). A
 * proof built on such traces would not speak for every input, so the
 * verdict must be unknown, naming the pin. With -DOUTSIDE the program
 * calls getenv, outside the instrumented code: unknown too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static volatile int sink;
static volatile int slots[16];

__attribute__((noinline)) static void hit(int v)
{
    sink = v;
}

__attribute__((noinline)) static int mixed(const uint8_t *d)
{
    return (d[1] ^ d[2]) == 0x5a;
}

__attribute__((noinline)) static int same(const uint8_t *d)
{
    return d[1] == d[2];
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
#ifdef OUTSIDE
    if (getenv("GB_REACH_NEVER_SET"))
        sink = 3;
#else
    slots[d[0] & 15] = 1;
#endif
    if (mixed(d)) {
        if (same(d))
            hit(1); /* TARGET */
    }
    return 0;
}
