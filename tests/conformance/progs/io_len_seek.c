/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input length: the fseek(SEEK_END) + ftell idiom for a file's
 * size, then rewind. Property: abort() reached (needs 5 bytes; the seed
 * has 8). */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: len0 len1 len2
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f || fseek(f, 0, SEEK_END) != 0)
        return 2;
    long size = ftell(f);
    rewind(f);
    int c = fgetc(f);
    fclose(f);
    if (size == 5 && c == 'E')
        abort();
    return 0;
}
