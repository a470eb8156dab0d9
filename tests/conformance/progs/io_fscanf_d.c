/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fscanf %d (two numbers, one negative).
 * Property: abort() reached. */
// seed: 31 31 31 31 20 2d 31 31 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    int a = 0, b = 0;
    int r = fscanf(f, "%d %d", &a, &b);
    fclose(f);
    printf("%d\n", r);
    if (r == 2 && a == 1337 && b == -42)
        abort();
    return 0;
}
