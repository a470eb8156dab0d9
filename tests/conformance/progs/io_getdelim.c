/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: getdelim with ',' (comma-separated fields).
 * Field 1's bytes reach a branch only through getdelim's decisions (each
 * is not ',', the last is). Property: abort() when field 2 is "end,", a
 * byte shorter than the seed's. */
// seed: 61 61 61 61 2c 62 62 62 62 2c 63 2c
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char *tok = NULL;
    size_t cap = 0;
    ssize_t r;
    int n = 0, end = 0;
    while ((r = getdelim(&tok, &cap, ',', f)) != -1) {
        n++;
        printf("%d: %zd\n", n, r);
        if (n == 2 && r == 4 && memcmp(tok, "end,", 4) == 0)
            end = 1;
    }
    free(tok);
    fclose(f);
    if (end)
        abort();
    return 0;
}
