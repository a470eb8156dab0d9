/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fscanf %s (a width-limited word) and strcmp.
 * Property: abort() reached. */
// seed: 61 61 61 61 20 62 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char w[8], v[8];
    int r = fscanf(f, "%7s %7s", w, v);
    fclose(f);
    printf("%d\n", r);
    if (r == 2 && strcmp(w, "open") == 0 && v[0] == 'Z')
        abort();
    return 0;
}
