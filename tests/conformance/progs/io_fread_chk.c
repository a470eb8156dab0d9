/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: _FORTIFY_SOURCE's checked freads
 * (__fread_chk, which clang-14 calls for fread under -D_FORTIFY_SOURCE=2
 * when it knows the buffer's size, and __fread_unlocked_chk), called
 * directly so that -O0 has them too. Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b0 b7 b8
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
extern size_t __fread_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f);
extern size_t __fread_unlocked_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f);

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    uint8_t a[8], b[4];
    size_t r = __fread_chk(a, sizeof a, 2, 4, f);
    size_t s = __fread_unlocked_chk(b, sizeof b, 1, 4, f);
    fclose(f);
    printf("%zu %zu\n", r, s);
    if (r == 4 && s == 4 && ((a[0] == 'C') & (a[7] == 'H') & (b[0] == 'K')))
        abort();
    return 0;
}
