/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a packed bit-field record of 128 bits, read from the input
 * with no __int128 in the source: clang-14 loads the whole record as one
 * i128 (shifting and masking at -O0, masking and comparing in 128 bits at
 * -O2). Property: abort() reached (field b, bits 40..79, straddles the two
 * 64-bit halves). */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b5 b7 b8 b9
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct __attribute__((packed)) rec {
    uint64_t a : 40, b : 40, c : 48;
};
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 16)
        return 0;
    struct rec r;
    memcpy(&r, d, 16);
    if (r.b == 0x123456789aull)
        abort();
    printf("%llx %llx %llx\n", (unsigned long long)r.a, (unsigned long long)r.b,
           (unsigned long long)r.c);
    return 0;
}
