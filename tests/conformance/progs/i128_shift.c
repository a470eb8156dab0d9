/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: 16 input bytes assembled into an unsigned __int128 with
 * shifts and ors, then compared through 128-bit shifts (logical and
 * arithmetic), a field that straddles the two 64-bit halves, an unsigned
 * 128-bit order and an xor of the halves. Property: abort() reached
 * (byte 0 = fe, byte 1 >= 0x80, deadbeef in bits 44..75, which are
 * bytes 6..10 big-endian, and byte 15 ^ byte 7 == 0x5a). */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b0 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 16)
        return 0;
    unsigned __int128 v = 0;
    for (int i = 0; i < 16; i++)
        v = v << 8 | d[i];
    __int128 s = (__int128)v;
    unsigned __int128 floor = (unsigned __int128)0x8000000000000000ull << 64 | 0x10;
    if ((s >> 120) == -2 && (uint32_t)(v >> 44) == 0xdeadbeefu && (v << 8) > floor &&
        (uint8_t)(v ^ (v >> 64)) == 0x5a)
        abort();
    printf("%016llx %016llx\n", (unsigned long long)(v >> 64), (unsigned long long)v);
    return 0;
}
