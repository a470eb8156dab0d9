/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input length: a loop over lines to EOF, through __getdelim
 * (what glibc's inline getline calls when gcc optimises). The -1 at the
 * end is where the length variable says the file ends, so the search can
 * ask for one more line. Property: abort() when the lines start with 'a',
 * 'b' and '!' (at least 5 bytes; the seed has 4). */
// seed: 61 0a 62 0a
// pc-bytes: b0 b1 b2 b3
#include <stdio.h>
#include <stdlib.h>

extern ssize_t __getdelim(char **line, size_t *cap, int delim, FILE *f);

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char *line = NULL, first[3] = {0};
    size_t cap = 0;
    int n = 0;
    while (__getdelim(&line, &cap, '\n', f) != -1)
        if (n < 3)
            first[n++] = line[0];
    free(line);
    fclose(f);
    printf("%d\n", n);
    if (n == 3 && first[0] == 'a' && first[1] == 'b' && first[2] == '!')
        abort();
    return 0;
}
