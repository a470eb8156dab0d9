/* SPDX-License-Identifier: Apache-2.0 */
/* A whole program that deletes its input file (@@) after reading it;
 * 'Z' first aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    int c = fgetc(f);
    fclose(f);
    unlink(argv[1]);
    if (c == 'Z')
        abort();
    return 0;
}
