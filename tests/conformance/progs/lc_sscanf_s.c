/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: sscanf "%8s" after a literal word; the word takes the
 * shadows of the bytes it copied, so strcmp on it can be solved.
 * Property: abort() when the command is "reboot". */
// seed: 63 6d 64 20 73 74 61 74 75 73 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char line[32], w[9] = "";
    if (n >= sizeof line)
        return 0;
    memcpy(line, d, n);
    line[n] = 0;
    int r = sscanf(line, "cmd %8s", w);
    printf("%d %s\n", r, w);
    if (r == 1 && strcmp(w, "reboot") == 0)
        abort();
    return 0;
}
