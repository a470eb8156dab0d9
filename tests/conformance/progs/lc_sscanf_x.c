/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: sscanf "%x" on a line copied from the input (the model
 * reads the buffer's shadows, as strtol's does), after a literal.
 * Property: abort() when the address falls in a 16-byte window. */
// seed: 61 64 64 72 3d 30 38 30 30 30 30 30 30 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char line[32];
    if (n >= sizeof line)
        return 0;
    memcpy(line, d, n);
    line[n] = 0;
    unsigned addr = 0;
    int r = sscanf(line, "addr=%x", &addr);
    printf("%d %x\n", r, addr);
    if (r == 1 && addr >= 0x1fffc000u && addr < 0x1fffc010u)
        abort();
    return 0;
}
