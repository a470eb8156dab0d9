/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: values passed through `...` keep their expressions, read
 * with va_arg in a function the variadic one hands its va_list to (the
 * shape of libtiff's TIFFSetField -> _TIFFVSetField, where every tag value
 * is set). On x86-64 the call below puts ints in the last five integer
 * registers, a long on the stack, and doubles in the eight vector
 * registers and then on the stack, so every place va_arg reads from is
 * covered (within the 16 arguments whose expressions a call passes). The
 * seed passes every compare but the last, so its path constraint holds
 * them all. Property: abort() when bytes 0-4 are "ABCDE", byte 5 is 'L',
 * byte 6 > 200 and byte 7 > 150. */
// seed: 41 42 43 44 45 4c d0 00
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

/* 1 if the values fmt describes (i: int, l: long, d: double) are the ones
 * the property wants, in order. */
__attribute__((noinline)) static int vcheck(const char *fmt, va_list ap)
{
    int k = 0, ndouble = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f == 'i') {
            if (va_arg(ap, int) != 'A' + k++)
                return 0;
        } else if (*f == 'l') {
            if (va_arg(ap, long) >> 40 != 'L')
                return 0;
        } else {
            double v = va_arg(ap, double);
            ndouble++;
            if (ndouble == 1 && !(v > 200.0))
                return 0;
            if (ndouble == 9 && !(v > 150.0))
                return 0;
        }
    }
    return 1;
}

__attribute__((noinline)) static int check(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vcheck(fmt, ap);
    va_end(ap);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    if (check("iiiiilddddddddd", d[0], d[1], d[2], d[3], d[4], (long)d[5] << 40, (double)d[6], 1.0,
              2.0, 3.0, 4.0, 5.0, 6.0, 7.0, (double)d[7]))
        abort();
    return 0;
}
