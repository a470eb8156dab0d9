/* SPDX-License-Identifier: Apache-2.0 */
/* Test target without any AFL++ runtime: the forkserver client must reject
 * it. With "env" it exits with an environment variable's value, with
 * "layout" 1 when it runs without ASLR, else 0 (for gb_exec_run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "env") == 0) {
        const char *v = getenv(argv[2]);
        return v ? atoi(v) : 100;
    }
    if (argc > 1 && strcmp(argv[1], "layout") == 0)
        return (personality(0xffffffff) & ADDR_NO_RANDOMIZE) ? 1 : 0;
    if (argc > 1 && strcmp(argv[1], "grandchild") == 0) {
        /* leaves a child behind that would outlive a plain kill */
        if (system("sleep 30 &") != 0)
            return 3;
        for (;;)
            ;
    }
    puts("plain");
    return argc > 1 ? atoi(argv[1]) : 0;
}
