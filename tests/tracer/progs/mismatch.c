/* SPDX-License-Identifier: Apache-2.0 */
/* A call through a function pointer of the wrong type (undefined in C,
 * seen in old code): a function returning unsigned __int128 (a struct of
 * two i64, whose shadow is a pair) called as one returning uint64_t. The
 * caller then builds 64-bit expressions over the pair; the runtime must
 * neither crash nor write the pair to the trace, and drops the entries
 * that hold it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
__attribute__((noinline)) static unsigned __int128 wide(uint64_t v)
{
    return (unsigned __int128)v * 3;
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    uint64_t v;
    memcpy(&v, d, 8);
    uint64_t (*f)(uint64_t) = (uint64_t(*)(uint64_t))(void (*)(void))wide;
    uint64_t r = f(v);
    if (r == 0x1234)
        puts("narrow matched");
    if (v == 0x4141414141414141ull)
        puts("input matched");
    printf("%llx\n", (unsigned long long)r);
    return 0;
}
