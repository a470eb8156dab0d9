/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: vfscanf through a program's own variadic
 * wrapper (a hex key and a signed count). Property: abort() reached. */
// seed: 30 30 30 30 20 2d 31 31 31 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int scan(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfscanf(f, fmt, ap);
    va_end(ap);
    return r;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    unsigned key = 0;
    int count = 0;
    int r = scan(f, "%x %d", &key, &count);
    fclose(f);
    printf("%d %x %d\n", r, key, count);
    if (r == 2 && key == 0xbeef && count == -987)
        abort();
    return 0;
}
