/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: many sscanf formats (and vsscanf) on one buffer, printing
 * what they stored, so that the equivalence test compares the model's
 * directive-by-directive run with libc's whole call (return values, %n,
 * widths, length modifiers, suppression, literals, sets, and the concrete
 * fallback of %f). Property: abort() reached (%c and %[ then a compare). */
// seed: 50 78 79 20 31 32 20 2d 37 20 30 78 31 66 20 30 37 37 0a 61 62 63 0a
// pc-bytes: b0 b1 b2 b3 b4 b6 b7 b8 b9 b10
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const formats[] = {
    "%d%n",     "%*d %x",        "%3d%2d",
    "%hhd%n",   "%lld %llu",     "%o %o",
    "%i %i",    "%15s %5c",      "%15[a-z]%*[^\n]%n",
    "k=%d,",    "%d,%d",         " %15s %n",
    "%%%d",     "%lx%hu",        "%5s%n",
    "%f %p",    "%*s %*s %d %n", "%c%15[a-z]",
    "%2s%2s%n", "%*c%*c%*c%n",   "%x%x%x",
    "%zx %jd",  "%4X %hhx",
};

/* The vsscanf path, for the formats with an odd index. */
static int vscan(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

static int scan(size_t k, const char *s, const char *fmt, void *x, void *y, void *z)
{
    return k % 2 ? vscan(s, fmt, x, y, z) : sscanf(s, fmt, x, y, z);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[64];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    int gate = 0;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        long long a = -1, b = -1;
        int n1 = -1;
        char s1[16] = "?", s2[16] = "?";
        double f = 0;
        void *p = NULL;
        int r;
        if (k == 7 || k == 17)
            r = scan(k, buf, formats[k], s1, s2, NULL);
        else if (k == 8 || k == 11 || k == 14)
            r = scan(k, buf, formats[k], s1, &n1, NULL);
        else if (k == 15)
            r = scan(k, buf, formats[k], &f, &p, NULL);
        else if (k == 18)
            r = scan(k, buf, formats[k], s1, s2, &n1);
        else if (k == 19)
            r = scan(k, buf, formats[k], &n1, NULL, NULL);
        else if (k == 0 || k == 3 || k == 16)
            r = scan(k, buf, formats[k], &a, &n1, NULL);
        else
            r = scan(k, buf, formats[k], &a, &b, &n1);
        if (k == 17)
            gate = r == 2 && s1[0] == 'Q' && strcmp(s2, "ok") == 0;
        printf("%zu r=%d a=%lld b=%lld n=%d s=%.8s|%.8s f=%g p=%p\n", k, r, a, b, n1, s1, s2, f, p);
    }
    if (gate)
        abort();
    return 0;
}
