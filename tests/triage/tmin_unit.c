/* SPDX-License-Identifier: Apache-2.0 */
/* gb_tmin on predicates without processes: what it keeps, that it never
 * asks about the same bytes twice, the run limit, a failing predicate,
 * allocation failures, the stop flag; then the crash predicates on
 * triage's planted bugs (argv[1], work dir argv[2]) when built. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "triage.h"

typedef struct probe {
    int (*holds)(const uint8_t *in, size_t len);
    unsigned calls, repeats;
    unsigned fail_after; /* 0 = never fail */
    uint64_t *seen;      /* hashes of the candidates asked about */
    size_t nseen;
} probe_t;

static int pred(void *ctx, const uint8_t *in, size_t len, gb_err_t *e)
{
    probe_t *p = ctx;
    uint64_t h = gb_hash64(in, len, len);
    for (size_t i = 0; i < p->nseen; i++)
        p->repeats += p->seen[i] == h;
    uint64_t *grown = realloc(p->seen, (p->nseen + 1) * sizeof *grown);
    if (grown) {
        p->seen = grown;
        p->seen[p->nseen++] = h;
    }
    if (p->fail_after && ++p->calls >= p->fail_after)
        return gb_err_set(e, "predicate broke");
    p->calls += !p->fail_after;
    return p->holds(in, len);
}

static int has_bug(const uint8_t *in, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (memcmp(in + i, "BUG!", 4) == 0)
            return 1;
    return 0;
}

/* An 'X' first and at least ten bytes: the other nine become '0'. */
static int x_and_ten(const uint8_t *in, size_t len)
{
    return len >= 10 && in[0] == 'X';
}

static int never(const uint8_t *in, size_t len)
{
    (void)in;
    (void)len;
    return 0;
}

static uint8_t *junk(size_t n, uint64_t seed)
{
    uint8_t *d = malloc(n);
    for (size_t i = 0; d && i < n; i++)
        d[i] = (uint8_t)('a' + check_xorshift(&seed) % 26); /* lower case: no "BUG!" */
    return d;
}

static int minimise(probe_t *p, const uint8_t *in, size_t len, uint64_t max_runs, uint8_t **out,
                    size_t *olen, gb_tmin_stats_t *st, gb_err_t *e)
{
    gb_tmin_opts_t o = {.pred = pred, .ctx = p, .max_runs = max_runs};
    return gb_tmin(&o, in, len, out, olen, st, e);
}

static void test_substring(void)
{
    uint8_t *in = junk(3000, 7);
    memcpy(in + 1711, "BUG!", 4);
    probe_t p = {.holds = has_bug};
    uint8_t *out = NULL;
    size_t olen = 0;
    gb_tmin_stats_t st;
    gb_err_t e;
    CHECK(minimise(&p, in, 3000, 0, &out, &olen, &st, &e) == 0);
    CHECK_MSG(olen == 4 && memcmp(out, "BUG!", 4) == 0, "kept %zu bytes", olen);
    CHECK(st.len_in == 3000 && st.len_out == olen);
    CHECK_MSG(st.runs == p.nseen, "runs %llu, asked %zu", (unsigned long long)st.runs, p.nseen);
    CHECK_MSG(p.repeats == 0, "%u candidates asked about twice", p.repeats);
    /* Deletion of halving blocks finds 4 bytes in 3000 in far fewer runs
     * than one per byte. */
    CHECK_MSG(st.runs < 600, "%llu runs", (unsigned long long)st.runs);
    free(p.seen);
    gb_free(out);
    free(in);
}

static void test_normalise(void)
{
    uint8_t *in = junk(500, 11);
    in[0] = 'X';
    probe_t p = {.holds = x_and_ten};
    uint8_t *out = NULL;
    size_t olen = 0;
    gb_tmin_stats_t st;
    gb_err_t e;
    CHECK(minimise(&p, in, 500, 0, &out, &olen, &st, &e) == 0);
    CHECK_MSG(olen == 10 && memcmp(out, "X000000000", 10) == 0, "got %zu bytes '%.*s'", olen,
              (int)olen, (const char *)out);
    CHECK(p.repeats == 0);
    free(p.seen);
    gb_free(out);
    free(in);
}

static void test_limits(void)
{
    uint8_t *in = junk(400, 3);
    memcpy(in + 100, "BUG!", 4);
    probe_t p = {.holds = has_bug};
    uint8_t *out = NULL;
    size_t olen = 0;
    gb_tmin_stats_t st;
    gb_err_t e;
    CHECK(minimise(&p, in, 400, 5, &out, &olen, &st, &e) == 0);
    CHECK_MSG(st.runs == 5 && p.nseen == 5, "runs %llu", (unsigned long long)st.runs);
    CHECK(olen <= 400 && has_bug(out, olen));
    free(p.seen);
    gb_free(out);

    probe_t n = {.holds = never};
    CHECK(minimise(&n, in, 400, 0, &out, &olen, &st, &e) == 0);
    CHECK(olen == 400 && memcmp(out, in, 400) == 0);
    free(n.seen);
    gb_free(out);

    probe_t f = {.holds = has_bug, .fail_after = 3};
    out = NULL;
    CHECK(minimise(&f, in, 400, 0, &out, &olen, &st, &e) == -1);
    CHECK(strcmp(e.msg, "predicate broke") == 0 && out == NULL);
    free(f.seen);

    gb_tmin_opts_t bad = {0};
    CHECK(gb_tmin(&bad, in, 400, &out, &olen, &st, &e) == -1);
    gb_tmin_opts_t notrace = {.pred = pred, .ctx = &p, .trace_bin = "/nonexistent"};
    probe_t q = {.holds = has_bug};
    notrace.ctx = &q;
    CHECK(gb_tmin(&notrace, in, 400, &out, &olen, &st, &e) == -1); /* no work_dir */
    free(q.seen);
    free(in);
}

/* Every allocation failing in turn: -1 with "out of memory" or a normal
 * result, never a crash or a leak of the caller's output. */
static void test_oom(void)
{
    uint8_t *in = junk(300, 5);
    memcpy(in + 40, "BUG!", 4);
    int failed = 0, done = 0;
    for (long n = 0; n < 40; n++) {
        probe_t p = {.holds = has_bug};
        uint8_t *out = NULL;
        size_t olen = 0;
        gb_tmin_stats_t st;
        gb_err_t e;
        gb_alloc_fail_after(n);
        int r = minimise(&p, in, 300, 0, &out, &olen, &st, &e);
        gb_alloc_fail_after(-1);
        if (r == 0) {
            CHECK(olen == 4 && memcmp(out, "BUG!", 4) == 0);
            done++;
        } else {
            CHECK_MSG(strstr(e.msg, "out of memory") != NULL, "%s", e.msg);
            CHECK(out == NULL);
            failed++;
        }
        gb_free(out);
        free(p.seen);
    }
    CHECK(failed > 0 && done > 0);
    free(in);
}

/* A stop flag already set: no run at all, the input itself back. */
static void test_stop(void)
{
    uint8_t *in = junk(100, 9);
    memcpy(in + 10, "BUG!", 4);
    static volatile sig_atomic_t stop = 1;
    probe_t p = {.holds = has_bug};
    gb_tmin_opts_t o = {.pred = pred, .ctx = &p, .stop = &stop};
    uint8_t *out = NULL;
    size_t olen = 0;
    gb_tmin_stats_t st;
    gb_err_t e;
    CHECK(gb_tmin(&o, in, 100, &out, &olen, &st, &e) == 0);
    CHECK(st.interrupted == 1 && st.runs == 0 && p.nseen == 0);
    CHECK(olen == 100 && memcmp(out, in, 100) == 0);
    gb_free(out);
    free(p.seen);
    free(in);
}

/* The crash predicates on triage's planted bugs (a real ASan build through
 * the crash runner): bug A behind junk stays bug A, with a probed
 * reference and with a known (type, state); a clean input is refused. */
static void test_crash_runner(const char *bin, const char *work)
{
    char *none[] = {NULL};
    gb_crash_target_t t = {.bin = bin, .args = none, .nargs = 0, .work_dir = work};
    gb_crash_runner_t *r = NULL;
    gb_err_t e;
    if (gb_crash_runner_new(&t, &r, &e) != 0) {
        CHECK_MSG(0, "crash runner: %s", e.msg);
        return;
    }
    uint8_t *in = junk(2000, 13);
    in[0] = 'A';
    in[1] = 'H'; /* deleting the 'A' would give another bug */
    gb_tmin_crash_t *pc = NULL;
    CHECK(gb_tmin_crash_new(r, in, 2000, &pc, &e) == 0);
    if (pc) {
        const gb_crash_t *ref = gb_tmin_crash_ref(pc);
        CHECK_MSG(strncmp(ref->state, "store", 5) == 0, "state '%s'", ref->state);
        gb_tmin_opts_t o = {.pred = gb_tmin_crash_pred, .ctx = pc};
        uint8_t *out = NULL;
        size_t olen = 0;
        gb_tmin_stats_t st;
        CHECK(gb_tmin(&o, in, 2000, &out, &olen, &st, &e) == 0);
        CHECK_MSG(olen == 1 && out && out[0] == 'A', "kept %zu bytes", olen);
        gb_free(out);

        gb_tmin_crash_t *known = NULL;
        CHECK(gb_tmin_crash_keep(r, ref->type, ref->state, &known, &e) == 0);
        o.ctx = known;
        out = NULL;
        CHECK(gb_tmin(&o, in, 2000, &out, &olen, &st, &e) == 0);
        CHECK_MSG(olen == 1 && out && out[0] == 'A', "kept %zu bytes", olen);
        gb_free(out);
        gb_tmin_crash_free(known);
    }
    gb_tmin_crash_free(pc);
    gb_tmin_crash_t *clean = NULL;
    CHECK(gb_tmin_crash_new(r, (const uint8_t *)"zzzz", 4, &clean, &e) == -1);
    CHECK_MSG(strstr(e.msg, "does not crash") != NULL, "%s", e.msg);
    CHECK(clean == NULL);
    gb_crash_runner_free(r);
    free(in);
}

int main(int argc, char **argv)
{
    test_substring();
    test_normalise();
    test_limits();
    test_oom();
    test_stop();
    if (argc > 2 && access(argv[1], X_OK) == 0)
        test_crash_runner(argv[1], argv[2]);
    else
        printf("triage.tmin.unit: no planted-bug build, crash predicates not tested\n");
    return check_exit("triage.tmin.unit");
}
