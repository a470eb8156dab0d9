/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fopen + fread of a little-endian header.
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    uint8_t h[4];
    uint16_t len = 0;
    if (fread(h, 1, 2, f) != 2 || fread(&len, sizeof len, 1, f) != 1)
        return fclose(f), 0;
    fclose(f);
    if (h[0] == 'G' && h[1] == 'B' && len == 0x1234)
        abort();
    return 0;
}
