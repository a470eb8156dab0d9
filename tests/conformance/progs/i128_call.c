/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: an unsigned __int128 returned by a function that is not
 * inlined. clang returns it as a struct of two i64 (built with
 * insertvalue at -O2, loaded from memory at -O0) and the caller takes it
 * apart with extractvalue. Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b0 b7 b8
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) static unsigned __int128 mul_add(uint64_t a, uint64_t b, uint64_t c)
{
    return (unsigned __int128)a * b + c;
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 11)
        return 0;
    uint64_t a;
    uint16_t c;
    memcpy(&a, d, 8);
    memcpy(&c, d + 9, 2);
    unsigned __int128 r = mul_add(a, d[8], c);
    if ((uint64_t)(r >> 64) == 0x12 && (uint16_t)r == 0xbeef)
        abort();
    printf("%016llx %016llx\n", (unsigned long long)(r >> 64), (unsigned long long)r);
    return 0;
}
