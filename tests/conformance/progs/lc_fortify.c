/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: _FORTIFY_SOURCE's checked copies (glibc's __memcpy_chk and
 * __strcpy_chk, which clang calls when it knows the destination's size)
 * keep the copied bytes' shadows. Property: abort() when the copy starts
 * "CHK" and its second copy ends "!". */
// seed: 61 61 61 61 61 61
// pc-bytes: b0 b1 b2
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern void *__memcpy_chk(void *d, const void *s, size_t n, size_t dn);
extern char *__strcpy_chk(char *d, const char *s, size_t dn);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[16], copy[16];
    if (n >= sizeof buf)
        return 0;
    __memcpy_chk(buf, d, n, sizeof buf);
    buf[n] = 0;
    __strcpy_chk(copy, buf, sizeof copy);
    puts(copy);
    if (n == 6 && memcmp(buf, "CHK", 3) == 0 && copy[5] == '!')
        abort();
    return 0;
}
