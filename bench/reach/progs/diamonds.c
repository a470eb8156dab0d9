/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: targets behind gates among diamonds. 64 diamonds test one
 * input bit each and call a different function on each side, so every
 * flip of one is a new block: what a search led by new coverage chases
 * first. The targets sit behind one to four gates after and between
 * them; a directed search should not need the diamonds explored. */
#include "reach_bench.h"

__attribute__((noinline)) static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Two functions per diamond, distinct so the compiler merges none. */
#define ARMS(i)                                                                                    \
    __attribute__((noinline)) static void arm##i##a(void)                                          \
    {                                                                                              \
        reach_sink += (i);                                                                         \
    }                                                                                              \
    __attribute__((noinline)) static void arm##i##b(void)                                          \
    {                                                                                              \
        reach_sink -= (i);                                                                         \
    }
/* Diamond i tests bit i / 32 of byte i % 32. */
#define DIAMOND(i)                                                                                 \
    if ((d[(i) % 32] >> ((i) / 32)) & 1)                                                           \
        arm##i##a();                                                                               \
    else                                                                                           \
        arm##i##b();
// clang-format off
#define FIRST(X) \
    X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) \
    X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) \
    X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41)
#define SECOND(X) \
    X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49) X(50) X(51) X(52) \
    X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62) X(63) \
    X(64) X(65) X(66) X(67) X(68) X(69) X(70) X(71) X(72) X(73)
// clang-format on

FIRST(ARMS)
SECOND(ARMS)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 32)
        return 0;
    FIRST(DIAMOND)
    if (d[3] == 'D')
        TARGET(1);
    if (le32(d + 8) == 0x444d4e44u && d[12] == 'x') /* "DNMD" */
        TARGET(2);
    SECOND(DIAMOND)
    if (d[16] == 'N' && d[17] == 'E' && d[18] == 'S')
        TARGET(3);
    if (d[20] == 'K' && d[22] == 'c' && d[21] == (uint8_t)(d[22] ^ 0x5a))
        TARGET(4);
    if (d[24] == 'c' && d[25] == 'h' && le32(d + 26) == 0x6e69616cu) /* "lain" */
        TARGET(5);
    return 0;
}
