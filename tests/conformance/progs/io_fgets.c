/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fgets, line by line. Property: abort()
 * reached when the second line is "GO". */
// seed: 61 0a 62 62 62 0a
// pc-bytes: b0 b1 b2 b3 b4 b5
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char line[16];
    int n = 0, go = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (n == 2 && line[0] == 'G' && line[1] == 'O' && line[2] == '\n')
            go = 1;
    }
    fclose(f);
    printf("%d lines\n", n);
    if (go)
        abort();
    return 0;
}
