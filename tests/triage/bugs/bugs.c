/* SPDX-License-Identifier: Apache-2.0 */
/* Planted bugs for the triage tests, one per first input byte (a
 * libFuzzer-style harness: glassbox build's driver or libFuzzer calls it).
 * Each bug lives in its own noinline function so its crash state is known:
 *   H  heap-buffer-overflow READ 1 (heap_read)
 *   I  heap-buffer-overflow READ 1 in inlined_read, inlined into heap_inl
 *   U  heap-use-after-free READ 1 (use_after_free)
 *   N  SEGV on a null pointer, WRITE (null_write)
 *   O  UBSan signed-integer-overflow (add_overflow)
 *   A, B  one heap-buffer-overflow WRITE 1 in store(), reached through
 *         path_a or path_b: two crash states
 *   F  abort() on every other run, counted in the file named by
 *      GB_TEST_FLAKY_COUNTER (never without it): flaky
 *   T  never returns (a hang)
 * The second byte varies the bad index or value, so many different inputs
 * hit each bug. Anything else returns normally. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;
static void *volatile keep;

__attribute__((noinline)) static void heap_read(const uint8_t *d, size_t n)
{
    char *p = malloc(8);
    memcpy(p, d, n < 8 ? n : 8);
    sink = p[8 + (n > 1 ? d[1] & 3 : 0)];
    free(p);
}

/* Always inlined: only the symbolizer's inline info shows it as a frame. */
__attribute__((always_inline)) static inline char inlined_read(const char *p, size_t i)
{
    return p[i];
}

__attribute__((noinline)) static void heap_inl(const uint8_t *d, size_t n)
{
    char *p = malloc(4);
    keep = p;
    sink = inlined_read(p, 4 + (n > 1 ? d[1] & 3 : 0));
    free(p);
}

__attribute__((noinline)) static void use_after_free(const uint8_t *d, size_t n)
{
    char *p = malloc(16);
    keep = p;
    free(p);
    sink = p[n > 1 ? d[1] & 7 : 0];
}

/* Returns an error code as a pointer (16 = "not found"), a classic. */
__attribute__((noinline)) static int *find_slots(const uint8_t *d, size_t n)
{
    (void)d;
    return (int *)(n > 1000000 ? (uintptr_t)keep : (uintptr_t)16);
}

/* The store through it faults in the zero page (ASan's SEGV report); no
 * pointer arithmetic on null, so UBSan has nothing to say first. */
__attribute__((noinline)) static void null_write(const uint8_t *d, size_t n)
{
    int *slots = find_slots(d, n);
    *slots = n > 1 ? d[1] : 1;
}

__attribute__((noinline)) static void add_overflow(const uint8_t *d, size_t n)
{
    volatile int v = INT_MAX - 3;
    v = v + 10 + (n > 1 ? d[1] & 7 : 0);
    sink = v;
}

__attribute__((noinline)) static void store(uint8_t *buf, size_t i, uint8_t v)
{
    buf[i] = v;
}

__attribute__((noinline)) static void path_a(const uint8_t *d, size_t n)
{
    uint8_t *buf = malloc(16);
    keep = buf;
    store(buf, 16 + (n > 1 ? d[1] & 3 : 0), 'a');
    free(buf);
}

__attribute__((noinline)) static void path_b(const uint8_t *d, size_t n)
{
    uint8_t *buf = malloc(16);
    keep = buf;
    store(buf, 16 + (n > 1 ? d[1] & 3 : 0), 'b');
    free(buf);
}

__attribute__((noinline)) static void flaky(void)
{
    const char *path = getenv("GB_TEST_FLAKY_COUNTER");
    if (!path)
        return;
    long count = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &count) != 1)
            count = 0;
        fclose(f);
    }
    count++;
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", count);
        fclose(f);
    }
    if (count % 2 == 1)
        abort();
}

__attribute__((noinline)) static void hang(void)
{
    for (;;)
        sink++;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n == 0)
        return 0;
    switch (d[0]) {
    case 'H':
        heap_read(d, n);
        break;
    case 'I':
        heap_inl(d, n);
        break;
    case 'U':
        use_after_free(d, n);
        break;
    case 'N':
        null_write(d, n);
        break;
    case 'O':
        add_overflow(d, n);
        break;
    case 'A':
        path_a(d, n);
        break;
    case 'B':
        path_b(d, n);
        break;
    case 'F':
        flaky();
        break;
    case 'T':
        hang();
        break;
    default:
        break;
    }
    return 0;
}
