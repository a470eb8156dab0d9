/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtod's model from a seed with no number (issue 37). The
 * field is letters, longer than its 12-byte buffer: the parse stops at the
 * first byte, and the model must say so (a digit here? a '.'?) so that the
 * search can write a first digit, then a dot and a fraction digit, one
 * decision at a time, and then solve the range. Property: abort() when the
 * field parses to a value in (2.5, 2.75), e.g. "2.6". */
// seed: 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70 71 72
// pc-bytes: b0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char field[13];
    size_t k = n < 12 ? n : 12;
    memcpy(field, d, k);
    field[k] = 0;
    char *end;
    double v = strtod(field, &end);
    if (end == field)
        return 0; /* no number: ignored */
    if (v > 2.5 && v < 2.75)
        abort();
    return 0;
}
