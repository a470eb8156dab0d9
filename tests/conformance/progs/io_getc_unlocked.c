/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: getc_unlocked and fgetc_unlocked read the
 * file like getc. Property: abort() when it starts "GBX". */
// seed: 61 62 63 64
// pc-bytes: b0 b1 b2
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    char got[4] = {0};
    int c, i = 0;
    while (i < 3 && (c = (i & 1) ? fgetc_unlocked(f) : getc_unlocked(f)) != EOF)
        got[i++] = (char)c;
    fclose(f);
    puts(got);
    if (got[0] == 'G' && got[1] == 'B' && got[2] == 'X')
        abort();
    return 0;
}
