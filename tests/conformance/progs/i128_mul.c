/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a 128-bit product of 64-bit operands (unsigned __int128)
 * whose high and low halves are both compared, as mulh-style hashes and
 * parsers do.
 * Property: abort() reached (a = 0x1d1ffcf7566148, b = 0x9e37 is one
 * answer). The low half is compared in 16 bits and b has 16: a full
 * 64-bit low half makes Z3 factor a 77-bit number, seconds on a loaded
 * machine. The remainder printed after the gate divides an i128, which
 * stays pinned (e2e.untracked). */
// seed: 01 00 00 00 00 00 00 00 01 00
// pc-bytes: b0 b7 b8 b9
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 10)
        return 0;
    uint64_t a;
    uint16_t b;
    memcpy(&a, d, 8);
    memcpy(&b, d + 8, 2);
    unsigned __int128 p = (unsigned __int128)a * b;
    if ((uint64_t)(p >> 64) == 0x12 && (uint16_t)p == 0x5678)
        abort();
    printf("%016llx %016llx %u\n", (unsigned long long)(p >> 64), (unsigned long long)p,
           (unsigned)(p % 1000000007u));
    return 0;
}
