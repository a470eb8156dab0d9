/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: many fscanf formats on one file, each from
 * the start, printing what they stored, so that the equivalence test
 * compares the model's directive-by-directive run with libc's whole call
 * (return values, %n counts, widths, suppression, literals, sets).
 * Property: abort() reached (%c and %[ into a string compare). */
// seed: 50 78 79 20 31 32 20 2d 37 20 30 78 31 66 20 30 37 37 0a 61 62 63 0a
// pc-bytes: b0 b1 b2 b3 b4 b6 b7 b8 b9 b10
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const formats[] = {
    "%d%n",   "%*d %x",  "%3d%2d",  "%hhd%n", "%lld %llu", "%o %o",  "%i %i",  "%15s %5c",
    "%15[a-z]%*[^\n]%n",   "k=%d,",   "%d,%d",  " %15s %n",    "%%%d",   "%lx%hu", "%5s%n",
    "%f %p",  "%*s %*s %d %n", "%c%15[a-z]", "%2s%2s%n", "%*c%*c%*c%n", "%x%x%x",
};

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f)
        return 2;
    int gate = 0;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        rewind(f);
        long long a = -1, b = -1;
        int n1 = -1, n2 = -1;
        char s1[16] = "?", s2[16] = "?";
        double d = 0;
        void *p = NULL;
        int r;
        switch (k) {
        case 0: r = fscanf(f, formats[k], (int *)&a, &n1); break;
        case 1: r = fscanf(f, formats[k], (unsigned *)&a); break;
        case 2: r = fscanf(f, formats[k], (int *)&a, (int *)&b); break;
        case 3: r = fscanf(f, formats[k], (signed char *)&a, &n1); break;
        case 4: r = fscanf(f, formats[k], &a, (unsigned long long *)&b); break;
        case 5: r = fscanf(f, formats[k], (unsigned *)&a, (unsigned *)&b); break;
        case 6: r = fscanf(f, formats[k], (int *)&a, (int *)&b); break;
        case 7: r = fscanf(f, formats[k], s1, s2); break;
        case 8: r = fscanf(f, formats[k], s1, &n1); break;
        case 9: r = fscanf(f, formats[k], (int *)&a); break;
        case 10: r = fscanf(f, formats[k], (int *)&a, (int *)&b); break;
        case 11: r = fscanf(f, formats[k], s1, &n1); break;
        case 12: r = fscanf(f, formats[k], (int *)&a); break;
        case 13: r = fscanf(f, formats[k], (unsigned long *)&a, (unsigned short *)&b); break;
        case 14: r = fscanf(f, formats[k], s1, &n1); break;
        case 15: r = fscanf(f, formats[k], &d, &p); break;
        case 16: r = fscanf(f, formats[k], (int *)&a, &n1); break;
        case 17:
            r = fscanf(f, formats[k], s1, s2);
            gate = r == 2 && s1[0] == 'Q' && strcmp(s2, "ok") == 0;
            break;
        case 18: r = fscanf(f, formats[k], s1, s2, &n1); break;
        case 19: r = fscanf(f, formats[k], &n1); break;
        default: r = fscanf(f, formats[k], (unsigned *)&a, (unsigned *)&b, (unsigned *)&n2); break;
        }
        printf("%zu r=%d a=%lld b=%lld n=%d,%d s=%.8s|%.8s d=%g p=%p at %ld\n", k, r, a, b, n1,
               n2, s1, s2, d, p, ftell(f));
    }
    fclose(f);
    if (gate)
        abort();
    return 0;
}
