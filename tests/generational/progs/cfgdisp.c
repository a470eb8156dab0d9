/* SPDX-License-Identifier: Apache-2.0 */
/* For test_cfg: a decoder that dispatches through a table of
 * int (*)(const uint8_t *, size_t) handlers, while a void (*)(int) logger
 * also has its address taken. Input: four bytes; d[0] == 'L' calls the
 * logger with d[1]; otherwise d[2] == 'D' dispatches to the handler d[1]
 * picks (even: disp_even, odd: disp_odd), d[3] steers the code after it. */
#include <stddef.h>
#include <stdint.h>

static volatile int g;

typedef int (*disp_handler_t)(const uint8_t *, size_t);

__attribute__((noinline)) static int disp_even(const uint8_t *p, size_t n)
{
    (void)n;
    if (p[3] == 'q')
        g += 9;
    else
        g += 1;
    return 1;
}

__attribute__((noinline)) static int disp_odd(const uint8_t *p, size_t n)
{
    (void)p;
    g += (int)n;
    return 2;
}

__attribute__((noinline)) static void disp_logger(int level)
{
    if (level > 'A')
        g += 100;
    else
        g += 10;
}

static disp_handler_t const disp_table[2] = {disp_even, disp_odd};
void (*volatile disp_log)(int) = disp_logger;

/* Non-local and its address never taken: only its callers get its returns. */
__attribute__((noinline)) int disp_decode(const uint8_t *d, size_t n)
{
    int r = 0;
    if (d[2] == 'D')
        r = disp_table[d[1] & 1](d, n);
    if (r == 1 && d[3] == 'Z')
        g += 77;
    return r;
}

/* One block at -O0: the call, then the return. */
__attribute__((noinline)) int disp_wrap(const uint8_t *d, size_t n)
{
    return disp_decode(d, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    if (d[0] == 'L') {
        disp_log(d[1]);
        return 0;
    }
    disp_wrap(d, n);
    if (d[3] == 'W')
        g += 5;
    return 0;
}
