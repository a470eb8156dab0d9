/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtok's model keeps the tokens' shadows (it writes a NUL
 * over each delimiter; a call the tracer does not model would clear the
 * whole buffer). Property: abort() when the second space-separated word
 * is "GO". */
// seed: 61 61 20 62 62 20 63 63
// pc-bytes: b3 b4
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    char *w = strtok(buf, " "), *second = w ? strtok(NULL, " ") : NULL;
    puts(second ? second : "-");
    if (second && strcmp(second, "GO") == 0)
        abort();
    return 0;
}
