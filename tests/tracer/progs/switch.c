/* SPDX-License-Identifier: Apache-2.0 */
/* A switch on one byte: one SWITCH entry per case. */
#include <stdint.h>
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n == 0)
        return 0;
    switch (d[0]) {
    case 'a': puts("a"); break;
    case 'q': puts("q"); break;
    case 'z': puts("z"); break;
    default: puts("other"); break;
    }
    return 0;
}
