/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: the input path comes after an option, as
 * "prog -x FILE" ("// args:" below; @@ is the path). Property: abort()
 * reached. */
// seed: 00 00 00 00
// pc-bytes: b0
// args: -x @@
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3 || strcmp(argv[1], "-x") != 0)
        return fprintf(stderr, "usage: %s -x FILE\n", argv[0]), 2;
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return 2;
    unsigned char b[4];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n == 4 && b[0] == 'A' && b[3] == 'Z')
        abort();
    return 0;
}
