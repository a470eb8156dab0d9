/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: reachable. A three-byte magic guards the
 * target line; any input starting "RCH" reaches it. */
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
    if (n < 3)
        return 0;
    if (d[0] == 'R' && d[1] == 'C' && d[2] == 'H')
        hit(1); /* TARGET */
    return 0;
}
