/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: the overflow check of a size computation done in 128 bits,
 * `((unsigned __int128)n * size) >> 64`, as allocators and parsers write
 * it. Property: abort() reached behind the overflow gate (a product that
 * needs more than 64 bits; a 64-bit multiply would have wrapped). */
// seed: 10 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
// pc-bytes: b0 b7 b8 b15
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 16)
        return 0;
    uint64_t count, size;
    memcpy(&count, d, 8);
    memcpy(&size, d + 8, 8);
    unsigned __int128 total = (unsigned __int128)count * size;
    if ((total >> 64) != 0)
        abort();
    printf("%llu bytes\n", (unsigned long long)total);
    return 0;
}
