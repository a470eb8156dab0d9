/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: getc and fgetc in a loop over the file.
 * Property: abort() reached. */
// seed: 61 62 63 64 65 66
// pc-bytes: b0 b1 b2 b3 b4 b5 b6
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    int c, i = 0, sum = 0, hits = 0;
    while ((c = (i & 1) ? fgetc(f) : getc(f)) != EOF) {
        sum += c;
        if ((i == 1 && c == 'g') || (i == 4 && c == 'c'))
            hits++;
        i++;
    }
    fclose(f);
    printf("%d bytes\n", i);
    if (hits == 2 && sum == 600)
        abort();
    return 0;
}
