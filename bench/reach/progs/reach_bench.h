/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: each target line is `TARGET(n);`. glassbox reach aims at
 * the line; plain glassbox fuzz and libFuzzer get a build with
 * -DTRAP_AT=n, where target n traps, and are timed to the crash. */
#ifndef REACH_BENCH_H
#define REACH_BENCH_H

#include <stddef.h>
#include <stdint.h>

static volatile int reach_sink;

__attribute__((noinline)) static void reach_hit(int n)
{
    reach_sink = n;
}

#ifdef TRAP_AT
#define TARGET(n)                                                                                  \
    do {                                                                                           \
        if ((n) == TRAP_AT)                                                                        \
            __builtin_trap();                                                                      \
        reach_hit(n);                                                                              \
    } while (0)
#else
#define TARGET(n) reach_hit(n)
#endif

#endif
