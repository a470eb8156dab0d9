/* SPDX-License-Identifier: Apache-2.0 */
/* Persistent-mode test target linked with AFL++'s runtime: the loop
 * afl-clang-fast makes of __AFL_LOOP, written by hand. Each input comes on
 * stdin; map[2] counts the iterations of this process. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern unsigned char *__afl_area_ptr;
extern int __afl_persistent_loop(unsigned int max_cnt);

/* The string afl-fuzz (and Glassbox) look for to set __AFL_PERSISTENT. */
__attribute__((used)) static const char persist_sig[] = "##SIG_AFL_PERSISTENT##";

int main(void)
{
    static unsigned iterations;
    while (__afl_persistent_loop(1000)) {
        char buf[64] = {0};
        ssize_t n = read(0, buf, sizeof buf - 1);
        iterations++;
        __afl_area_ptr[1]++;
        __afl_area_ptr[2] = (unsigned char)iterations;
        if (n >= 5 && memcmp(buf, "crash", 5) == 0)
            abort();
        if (n >= 4 && memcmp(buf, "loop", 4) == 0)
            for (;;)
                pause();
        if (n >= 1 && buf[0] == 'A')
            __afl_area_ptr[100]++;
    }
    return 0;
}
