/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: sscanf "%[^=]=%[^\n]" on a line, a key up to '=' and a
 * value up to the newline (negated sets). The key needs more bytes than
 * the seed's: only the recorded set decisions (each key byte is not '=',
 * the byte that ended it is) let the search move the '=', since strcmp
 * meets the concrete NUL sscanf wrote. Property: abort() when the key is
 * "port" and the value starts with '8'. */
// seed: 61 62 3d 63 64 65 66
// pc-bytes: b0 b1 b3 b6
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char line[32], key[16] = "", val[16] = "";
    if (n >= sizeof line)
        return 0;
    memcpy(line, d, n);
    line[n] = 0;
    int r = sscanf(line, "%15[^=]=%15[^\n]", key, val);
    printf("%d %s %s\n", r, key, val);
    if (r == 2 && strcmp(key, "port") == 0 && val[0] == '8')
        abort();
    return 0;
}
