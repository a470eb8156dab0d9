/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strcat's model moves the appended bytes' shadows.
 * Property: abort() when "id=" + input is "id=42". */
// seed: 61 61
// pc-bytes: b0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16], line[32] = "id=";
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    strcat(line, buf);
    puts(line);
    if (line[3] == '4' && line[4] == '2')
        abort();
    return 0;
}
