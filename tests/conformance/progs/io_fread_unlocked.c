/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fopen + fread_unlocked of a 16-byte header
 * (more than the 8 bytes below which glibc's -O2 macro turns a constant
 * fread_unlocked into getc_unlocked calls, which __uflow covers).
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b0 b1 b15
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    uint8_t h[16];
    size_t r = fread_unlocked(h, 1, sizeof h, f);
    fclose(f);
    printf("%zu\n", r);
    if (r == sizeof h && ((h[0] == 'U') & (h[1] == 'L') & (h[15] == 0x7f)))
        abort();
    return 0;
}
