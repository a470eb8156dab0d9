/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: values stored to globals and read back in another function.
 * Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
static unsigned g_state;
static uint8_t g_buf[4];
__attribute__((noinline)) static void put(uint8_t a, uint8_t b)
{
    g_state = a ^ 0x5a;
    g_buf[2] = b;
}
__attribute__((noinline)) static int check(void) { return g_state == 0x33 && g_buf[2] == '!'; }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    put(d[0], d[1]);
    if (check())
        abort();
    return 0;
}
