/* SPDX-License-Identifier: Apache-2.0 */
/* The driver main of bench/tracer: reads the input as tracer/rt/driver.c
 * does (argv[1], an exact-size heap copy) and calls LLVMFuzzerTestOneInput
 * once, timing it in-process. Compiled with clang-14 and linked as an
 * object, so it is never instrumented; with -DGB_BENCH_TRACE it also makes
 * the input symbolic exactly as the trace driver does (__gb_input), inside
 * the timed region since that is part of what tracing costs.
 * Prints one line to stderr: "gb-bench ns=N cpu_ns=C maxrss_kib=M", the
 * wall and CPU time of that region (CPU time is the steadier figure on a
 * shared machine, where a run may wait for a core) and the peak RSS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef GB_BENCH_TRACE
void __gb_input(const uint8_t *data, size_t len);
extern __thread void *__gb_callee;
#endif

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The whole file in one exact-size buffer, or NULL. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc(n ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT\n", argv[0]);
        return 2;
    }
    size_t len = 0;
    uint8_t *input = read_file(argv[1], &len);
    if (!input) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 2;
    }
    uint64_t t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
#ifdef GB_BENCH_TRACE
    __gb_input(input, len);
    __gb_callee = NULL; /* the harness's parameters are concrete */
#endif
    LLVMFuzzerTestOneInput(input, len);
    uint64_t c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t1 = now_ns(CLOCK_MONOTONIC);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "gb-bench ns=%llu cpu_ns=%llu maxrss_kib=%ld\n", (unsigned long long)(t1 - t0),
            (unsigned long long)(c1 - c0), ru.ru_maxrss);
    free(input);
    return 0;
}
