/* SPDX-License-Identifier: Apache-2.0 */
/* A target that does what a run should not on 'A' first: writes junk to
 * the forkserver's descriptors 198 and 199 and closes them, floods stdout
 * and stderr with 8 MiB, and changes its working directory. A crash
 * behind "xQ!" checks that the search still works beside it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static char buf[1 << 16];
    if (n > 0 && d[0] == 'A') {
        memset(buf, 'x', sizeof buf);
        (void)!write(199, buf, 8);
        (void)!write(198, buf, 8);
        close(198);
        close(199);
        for (int i = 0; i < 64; i++) {
            (void)!write(1, buf, sizeof buf);
            (void)!write(2, buf, sizeof buf);
        }
        (void)!chdir("/");
    }
    if (n > 2 && d[0] == 'x' && d[1] == 'Q' && d[2] == '!')
        abort();
    return 0;
}
