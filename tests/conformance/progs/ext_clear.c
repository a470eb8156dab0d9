/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a call to code the tracer does not see (here qsort's
 * internals and a struct filled by an uninstrumented libc call) returns
 * concrete data and clears the shadows of the memory it was given, so no
 * stale expression survives it. The input's first 8 bytes are copied into
 * a struct, then gettimeofday-like libc code (clock_gettime) overwrites
 * it; the gate afterwards is on input bytes that were never overwritten.
 * Property: abort() behind "XC" at bytes 8..9, and plain and trace builds
 * agree on every input (a stale shadow would predict the wrong path). */
// seed: 00 00 00 00 00 00 00 00 00 00
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 10)
        return 0;
    struct timespec ts;
    memcpy(&ts, d, sizeof ts < 8 ? sizeof ts : 8);
    clock_gettime(CLOCK_MONOTONIC, &ts); /* overwrites ts: not symbolic any more */
    int later = ts.tv_sec >= 0; /* always true; must not be a constraint on d[0..7] */
    if (later && d[8] == 'X' && d[9] == 'C')
        abort();
    printf("%d\n", later);
    return 0;
}
