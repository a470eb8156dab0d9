/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: fseek (SEEK_SET, SEEK_CUR), ftell and rewind
 * between fgetc/fread. Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b5
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    unsigned char x[2] = {0, 0};
    if (fseek(f, 5, SEEK_SET) != 0 || fread(x, 1, 1, f) != 1 || ftell(f) != 6)
        return fclose(f), 0;
    if (fseek(f, -4, SEEK_CUR) != 0 || fread(x + 1, 1, 1, f) != 1) /* offset 2 */
        return fclose(f), 0;
    rewind(f);
    int first = fgetc(f);
    fclose(f);
    if (x[0] == 'S' && x[1] == 'K' && first == '#')
        abort();
    return 0;
}
