/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach --target asserts ground truth: three properties, each a
 * target of its own. The first assert fails on d[0] == 'Z' and the trap
 * runs on "TP" in d[1..2] (both reached); the last assert never fails
 * (d[3] ^ d[4] == 0x5a and d[3] == d[4] contradict each other, in two
 * functions): unreachable within the bound. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

__attribute__((noinline)) static int mixed(const uint8_t *d)
{
    return (d[3] ^ d[4]) == 0x5a;
}

__attribute__((noinline)) static int same(const uint8_t *d)
{
    return d[3] == d[4];
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 5)
        return 0;
    assert(d[0] != 'Z');
    if (d[1] == 'T' && d[2] == 'P')
        __builtin_trap();
    if (mixed(d))
        assert(!same(d));
    return 0;
}
