/* SPDX-License-Identifier: Apache-2.0 */
/* A target that signals its own process group on 'A' first, which reaches
 * the forkserver it runs under; anything else parses a little. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 0 && d[0] == 'A')
        kill(0, SIGTERM);
    if (n > 2 && d[0] == 'x' && d[1] == 'Q' && d[2] == '!')
        abort();
    return 0;
}
