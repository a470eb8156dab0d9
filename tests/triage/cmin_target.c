/* SPDX-License-Identifier: Apache-2.0 */
/* The cmin tests' target: branches on the first bytes, a loop whose hit
 * count depends on the input (so hit-count buckets matter), a crash on
 * "CRASH" and a hang on "HANG". Reads the file named by argv[1], else
 * stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned sink;

/* noinline, each its own volatile: -O1 must not merge the cases into a
 * table lookup without branches. */
static volatile unsigned sa, sb, sc, scc, sother;
__attribute__((noinline)) static void got_a(void)
{
    sa++;
}
__attribute__((noinline)) static void got_b(void)
{
    sb++;
}
__attribute__((noinline)) static void got_c(const unsigned char *d, size_t n)
{
    sc++;
    if (n > 2 && d[2] == 'c')
        scc++;
}
__attribute__((noinline)) static void got_other(void)
{
    sother++;
}

static void letters(const unsigned char *d, size_t n)
{
    if (n < 2)
        return;
    if (d[1] == 'a')
        got_a();
    else if (d[1] == 'b')
        got_b();
    else if (d[1] == 'c')
        got_c(d, n);
    else
        got_other();
}

static void digits(const unsigned char *d, size_t n)
{
    /* One branch per digit seen: the count of each decides its bucket. */
    for (size_t i = 0; i < n; i++)
        if (d[i] >= '0' && d[i] <= '9')
            sink += d[i];
}

int main(int argc, char **argv)
{
    static unsigned char buf[4096];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    size_t n = fread(buf, 1, sizeof buf, f);
    if (n >= 5 && memcmp(buf, "CRASH", 5) == 0)
        abort();
    if (n >= 4 && memcmp(buf, "HANG", 4) == 0)
        for (;;)
            sink++;
    if (n > 0 && buf[0] == 'L')
        letters(buf, n);
    else if (n > 0 && buf[0] == 'D')
        digits(buf, n);
    else if (n > 0 && buf[0] == 'X')
        sink += n > 3 ? 7 : 8;
    else
        sink += 9;
    return 0;
}
