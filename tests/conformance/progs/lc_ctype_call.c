/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: ctype functions called as functions (the parentheses keep
 * glibc's macros out): calls of the models at -O0, glibc's inline table
 * loads at -O2. Property: abort() on an upper-case letter, a lower-case
 * letter, a letter or digit, a digit and a space. */
// seed: 2e 2e 2e 2e 2e
// pc-bytes: b0 b1 b2 b3 b4
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 5)
        return 0;
    int hits = 0;
    hits += (isupper)(d[0]) != 0;
    hits += (islower)(d[1]) != 0;
    hits += (isalnum)(d[2]) != 0;
    hits += (isdigit)(d[3]) != 0;
    hits += (isspace)(d[4]) != 0;
    printf("%d\n", hits);
    if (hits == 5)
        abort();
    return 0;
}
