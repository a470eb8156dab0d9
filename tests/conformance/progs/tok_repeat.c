/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: token repetition (issue 37). Words separated by spaces or
 * newlines drive a stack machine: PUSH adds a level, RUN runs the levels
 * and empties the stack, anything else empties it. The count of levels is
 * a plain variable that no path-constraint entry holds, so no flip asks
 * for one more PUSH: the search writes PUSH and RUN over two words of the
 * seed, then must copy the matched PUSH behind itself. Property: abort()
 * when RUN finds six levels or more, e.g. "PUSH PUSH PUSH PUSH PUSH PUSH
 * RUN". PUSH keeps a stack of where its words start, so that its match
 * is a branch at -O2 too: a match that only feeds data (a select) is no
 * decision the search can flip (docs/tracer.md). */
// seed: 61 62 63 64 20 65 66 67 20 68 69 6a 6b 0a
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t tr_levels;
static volatile size_t
    tr_stack[8]; /* where each level's word started (a store: PUSH stays a branch) */

static int blank(uint8_t c)
{
    return c == ' ' || c == '\n';
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    size_t depth = 0, at = 0;
    while (at < n) {
        while (at < n && blank(d[at]))
            at++;
        size_t start = at;
        while (at < n && !blank(d[at]))
            at++;
        size_t len = at - start;
        if (len == 4 && memcmp(d + start, "PUSH", 4) == 0) {
            if (depth < 8)
                tr_stack[depth] = start;
            depth++;
        } else if (len == 3 && memcmp(d + start, "RUN", 3) == 0) {
            if (depth >= 6)
                abort();
            tr_levels += depth;
            depth = 0;
        } else {
            depth = 0;
        }
    }
    return 0;
}
