/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input length: a getc loop to EOF; EOF is where the length
 * variable says the file ends, so the search can make it longer. Property:
 * abort() reached (needs 7 bytes ending in '!'; the seed has 4). */
// seed: 61 62 63 64
// pc-bytes: b0 b1 b2 b3 b4
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    int c, n = 0, last = 0;
    while ((c = getc(f)) != EOF) {
        n++;
        last = c;
    }
    fclose(f);
    printf("%d\n", n);
    if (n == 7 && last == '!')
        abort();
    return 0;
}
