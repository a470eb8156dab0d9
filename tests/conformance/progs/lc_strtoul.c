/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: strtoul's model in base 16 (hex digits of either case) and
 * the end pointer it returns. Property: abort() when the input is a hex
 * number 0xbeef followed by ';'. */
// seed: 31 7a 7a 7a 7a 7a 7a 7a
// pc-bytes: b0 b1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32], *end;
    if (n < 6 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    unsigned long v = strtoul(buf, &end, 16);
    printf("%lu %ld\n", v, (long)(end - buf));
    if (v == 0xbeef && *end == ';')
        abort();
    return 0;
}
