/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: getline, a line-oriented keyword parser.
 * Line 1's bytes reach no branch of the program, only getline's own
 * decisions (not '\n', and the last is). Property: abort() when line 2 is
 * the keyword "halt". */
// seed: 73 65 74 20 31 0a 73 65 74 20 32 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char *line = NULL;
    size_t cap = 0;
    ssize_t r;
    int n = 0, halt = 0;
    while ((r = getline(&line, &cap, f)) != -1) {
        n++;
        printf("%d: %zd\n", n, r);
        if (n == 2 && strncmp(line, "halt", 4) == 0 && line[4] == '\n')
            halt = 1;
    }
    free(line);
    fclose(f);
    if (halt)
        abort();
    return 0;
}
