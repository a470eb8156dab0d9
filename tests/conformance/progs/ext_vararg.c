/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a variadic call the tracer does not model (printf) keeps
 * the shadows of memory passed among its variadic arguments: at -O0 a
 * char pointer with an integer after it (not the `buf, len` convention
 * that clears memory after external calls), at -O2 the same array as an
 * i64 pointer (not a sized pointee to clear). Property: abort() when the
 * printed word starts with "QZ". */
// seed: 61 61 61 61
// pc-bytes: b0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char w[8] = "";
    if (n < 4)
        return 0;
    memcpy(w, d, 4);
    printf("%s %d\n", w, 2);
    if (w[0] == 'Q' && w[1] == 'Z')
        abort();
    return 0;
}
