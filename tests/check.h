/* SPDX-License-Identifier: Apache-2.0 */
/* What every C unit test uses: CHECK and CHECK_MSG count a failed condition
 * and say where (the test goes on, so one run shows every failure),
 * check_exit reports and gives the exit status, check_write_file writes a
 * fixture. */
#ifndef GB_TESTS_CHECK_H
#define GB_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int check_failures;

static inline void check_fail(const char *file, int line, const char *cond)
{
    fprintf(stderr, "%s:%d: CHECK failed: %s", file, line, cond);
    check_failures++;
}

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            check_fail(__FILE__, __LINE__, #c);                                                    \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(c, ...)                                                                          \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            check_fail(__FILE__, __LINE__, #c);                                                    \
            fputs(": ", stderr);                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* "NAME: ok" or the failure count; the process exit status. */
static inline int check_exit(const char *name)
{
    if (check_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
    else
        printf("%s: ok\n", name);
    return check_failures ? 1 : 0;
}

/* xorshift64: a reproducible stream for random tests (state never 0). */
static inline uint64_t check_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Writes a whole file; 0 or -1. */
static inline int check_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = len ? fwrite(data, 1, len, f) : 0;
    return fclose(f) == 0 && w == len ? 0 : -1;
}

#endif
