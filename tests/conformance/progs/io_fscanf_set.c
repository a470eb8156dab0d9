/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fscanf %[a-z]. The word needs more letters
 * than the seed has: only the recorded set decisions (each copied byte is
 * in the set, the ';' that ended it is not) let the search grow it, since
 * strcmp meets the concrete NUL scanf wrote. Property: abort() when the
 * word is "abcd". */
// seed: 61 62 3b 3b
// pc-bytes: b0 b1 b2
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    char w[16] = "";
    int r = fscanf(f, "%15[a-z]", w);
    fclose(f);
    printf("%d %s\n", r, w);
    if (r == 1 && strcmp(w, "abcd") == 0)
        abort();
    return 0;
}
