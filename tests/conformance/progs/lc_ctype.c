/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: ctype. isdigit() etc. are loads from glibc's class table
 * (tolower/toupper from theirs at -O2, calls at -O0); the tables are read
 * symbolically even with GLASSBOX_TABLES off. Property: abort() on a digit,
 * a letter, a space, a hex digit, then bytes that fold to 'q' and 'Z'. */
// seed: 2e 2e 2e 2e 2e 2e
// pc-bytes: b0 b1 b2 b3 b4 b5
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6)
        return 0;
    int hits = 0;
    hits += isdigit(d[0]) != 0;
    hits += isalpha(d[1]) != 0;
    hits += isspace(d[2]) != 0;
    hits += isxdigit(d[3]) != 0;
    hits += tolower(d[4]) == 'q';
    hits += toupper(d[5]) == 'Z';
    printf("%d\n", hits);
    if (hits == 6)
        abort();
    return 0;
}
