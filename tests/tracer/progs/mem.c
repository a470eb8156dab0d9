/* SPDX-License-Identifier: Apache-2.0 */
/* The trace build's inline memory tests: a 4-byte load whose only
 * symbolic byte is its last (the inline test of an existing shadow page
 * must see it), then a store and a load at symbolic indices (their
 * addresses are built lazily, and must still be pinned). */
#include <stdint.h>
#include <stdio.h>
static volatile uint32_t word;
static uint8_t buf[16];
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    word = 0x00123456;
    ((volatile uint8_t *)&word)[3] = d[0];
    if (word == 0x41123456)
        puts("word matched");
    buf[d[1] & 15] = 7;
    printf("%d\n", buf[d[2] & 15]);
    return 0;
}
