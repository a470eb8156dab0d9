/* SPDX-License-Identifier: Apache-2.0 */
/* A worklist that never runs dry while coverage stays flat: a number in
 * the form strtol reads, after any run of blanks and leading zeros (each
 * one more is progress: a loop taken once more), and then a gate no query
 * decides within the test's time limit (a factoring problem, as in
 * factor.c). Its flip times out in every expansion, and only a retry round
 * asks it again; the blanks alone would keep the search from ever running
 * dry (generational/README.md, "When coverage is flat"). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '0'))
        i++;
    if (n - i < 8)
        return 0;
    uint32_t x, y;
    memcpy(&x, d + i, 4);
    memcpy(&y, d + i + 4, 4);
    if ((uint64_t)x * y == 0x9012e17580fc2903ull)
        abort();
    return 0;
}
