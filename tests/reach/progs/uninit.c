/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach, for honesty of the constant folding (cfg_fold.c): lock
 * is uninitialised unless d[0] is 'K', so whether the target runs depends
 * on the stack's contents. LLVM's mem2reg would fold lock to 1 (undef
 * taken as 1); glassbox-cc must not mark the target UNREACHED at -O0.
 * The next two lines are a constant branch it must fold. */
#include <stddef.h>
#include <stdint.h>

static volatile int sink;

__attribute__((noinline)) static void hit(int v)
{
    sink = v;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    int lock;
    if (n > 0 && d[0] == 'K')
        lock = 1;
    if (lock != 1)
        hit(1); /* TARGET */
    int c = 2;
    if (c != 2)
        hit(2); /* FOLDED */
    return 0;
}
