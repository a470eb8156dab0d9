/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fscanf %x after a literal.
 * Property: abort() reached. */
// seed: 6b 3d 30 30 30 30 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    unsigned v = 0;
    int r = fscanf(f, "k=%x", &v);
    fclose(f);
    printf("%d\n", r);
    if (r == 1 && v == 0xbeef)
        abort();
    return 0;
}
