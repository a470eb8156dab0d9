/* SPDX-License-Identifier: Apache-2.0 */
/* Shadows flow through parameters and return values of calls, and through
 * memory (a struct on the stack). */
#include <stdint.h>
#include <stdio.h>
struct hdr {
    uint16_t kind;
    uint32_t size;
};
static __attribute__((noinline)) uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static __attribute__((noinline)) int check(const struct hdr *h) { return h->size == 0xdeadbeef; }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6)
        return 0;
    struct hdr h = {(uint16_t)(d[0] | d[1] << 8), rd32(d + 2)};
    if (check(&h))
        puts("size matched");
    return 0;
}
