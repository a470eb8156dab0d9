/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: vscanf on stdin (as "prog -"), through a
 * program's own variadic wrapper. Property: abort() reached. */
// seed: 78 3d 30 30 30 30 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6
// args: -
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int scan(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vscanf(fmt, ap);
    va_end(ap);
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "-") != 0)
        return 2;
    char name[8] = "";
    int v = 0;
    int r = scan("%7[a-z]=%d", name, &v);
    printf("%d %s %d\n", r, name, v);
    if (r == 2 && name[0] == 'y' && v == 4096)
        abort();
    return 0;
}
