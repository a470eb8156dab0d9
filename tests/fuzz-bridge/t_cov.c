/* SPDX-License-Identifier: Apache-2.0 */
/* Test target linked with AFL++'s runtime: sets map bytes by hand from the
 * input (argv[1], or stdin without it) and misbehaves on request. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern unsigned char *__afl_area_ptr;

static volatile int sink;
static void *volatile keep;

int main(int argc, char **argv)
{
    char buf[256] = {0};
    size_t n;
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 99;
    n = fread(buf, 1, sizeof buf - 1, f);
    if (f != stdin)
        fclose(f);
    __afl_area_ptr[1]++;
    if (n > 0 && buf[0] == 'A')
        __afl_area_ptr[100]++;
    if (n > 0 && buf[0] == 'B')
        __afl_area_ptr[200] += 2;
    if (n > 1 && buf[1] == 'C')
        __afl_area_ptr[60000] = 7;
    if (strncmp(buf, "crash", 5) == 0)
        abort();
    if (strncmp(buf, "segv", 4) == 0)
        *(volatile int *)(uintptr_t)sink = 1;
    if (strncmp(buf, "loop", 4) == 0)
        for (;;)
            sink++;
    if (strncmp(buf, "sleep", 5) == 0)
        sleep(2);
    if (strncmp(buf, "exit:", 5) == 0)
        return atoi(buf + 5);
    if (strncmp(buf, "big", 3) == 0) {
        /* fails under a small RLIMIT_AS; never touched, so cheap without */
        keep = malloc((size_t)512 << 20); /* volatile: clang elides malloc+free */
        return keep ? 0 : 55;
    }
    if (strncmp(buf, "len", 3) == 0)
        return (int)n;
    return 0;
}
