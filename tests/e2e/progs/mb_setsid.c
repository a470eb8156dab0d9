/* SPDX-License-Identifier: Apache-2.0 */
/* A target whose child leaves the run's process group (setsid) and
 * double-forks, as a daemon does: the grandchild sleeps for minutes. */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 0 && d[0] == 'A' && fork() == 0) {
        setsid();
        if (fork() == 0)
            sleep(300);
        _exit(0);
    }
    return 0;
}
