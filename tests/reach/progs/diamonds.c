/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: DASH's Figure 5.2, five input-dependent
 * diamonds before assert(lock == 1), with lock always 1: 32 paths, none
 * of which can fail the assertion. The target is the failing side.
 * With -DLOCK_BYTE the lock comes from input byte 5 after the diamonds
 * (the assertion can fail): a directed search goes there without
 * enumerating the diamonds' paths. */
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
    if (n < 6)
        return 0;
    int lock = 1;
    int x = 0, y = 0;
    int *volatile p = &y;
    if (d[0] & 1)
        x = x + 1;
    else
        *p = *p + 1;
    if (d[1] & 1)
        x = x + 1;
    else
        *p = *p + 1;
    if (d[2] & 1)
        x = x + 1;
    else
        *p = *p + 1;
    if (d[3] & 1)
        x = x + 1;
    else
        *p = *p + 1;
    if (d[4] & 1)
        x = x + 1;
    else
        *p = *p + 1;
#ifdef LOCK_BYTE
    if (d[5] == 'L')
        lock = 0;
#endif
    sink = x + y;
    if (lock != 1)
        hit(-1); /* TARGET */
    return 0;
}
