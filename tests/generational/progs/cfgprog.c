/* SPDX-License-Identifier: Apache-2.0 */
/* For test_cfg: a harness whose flips lead into a callee, back out of it
 * through a return, into a switch, and into an indirect call. Input: four
 * bytes; d[0] picks the indirect call or a diamond, d[1] the call of leaf,
 * d[2] the switch, d[3] leaf's argument. */
#include <stddef.h>
#include <stdint.h>

static volatile int g;

__attribute__((noinline)) static void leaf(int v)
{
    if (v == 7)
        g += 100;
    else
        g += 1;
}

__attribute__((noinline)) void cfgprog_cb(void) { g += 50; }

void (*volatile cfgprog_fp)(void) = cfgprog_cb;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    if (d[0] == 'I') {
        cfgprog_fp();
        return 0;
    }
    if (d[0] == 'A')
        g += 1;
    else
        g += 2;
    if (d[1] == 'C')
        leaf(d[3]);
    switch (d[2]) {
    case 'x': g += 5; break;
    case 'y': g += 6; break;
    default: break;
    }
    return 0;
}
