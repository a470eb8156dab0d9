/* SPDX-License-Identifier: Apache-2.0 */
/* A libFuzzer-style harness built with glassbox-cc --mode=cov, so that it
 * runs under Glassbox's cov driver: each call appends "pid size first-byte"
 * to the file named by T_LFDRV_LOG, which shows whether inputs arrive
 * intact and how many processes served them (persistent mode). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *log = getenv("T_LFDRV_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "%ld %zu %d\n", (long)getpid(), size, size ? data[0] : -1);
            fclose(f);
        }
    }
    if (size >= 5 && memcmp(data, "crash", 5) == 0)
        abort();
    if (size > 0 && data[0] == 'A')
        return 1;
    return 0;
}
