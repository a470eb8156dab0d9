/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: __builtin_*_overflow (llvm.*.with.overflow and
 * extractvalue). Property: abort() reached. */
// seed: 00 00 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6)
        return 0;
    uint8_t s;
    int8_t t;
    uint16_t m;
    int ov1 = __builtin_add_overflow(d[0], d[1], &s);
    int ov2 = __builtin_sub_overflow((int8_t)d[2], (int8_t)d[3], &t);
    int ov3 = __builtin_mul_overflow((uint16_t)(d[4] | 0x100), (uint16_t)d[5], &m);
    if (ov1 && s == 0x10 && ov2 && t == 0x7f && ov3 && d[5] == 0xf0)
        abort();
    return 0;
}
