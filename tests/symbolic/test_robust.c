/* SPDX-License-Identifier: Apache-2.0 */
/* The reader never crashes: truncation at every offset, random bit flips,
 * payload mutations with fixed checksums, and allocation failure. Meant to
 * run under ASan/UBSan as well. */
#include <stdint.h>

#include "gen.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    return check_xorshift(&rng_state);
}

/* Block boundaries (file offsets where a whole block ends), header first. */
static size_t boundaries(const uint8_t *p, size_t n, size_t *out, size_t max)
{
    size_t k = 0, off = GBT_HEADER_SIZE;
    out[k++] = off;
    while (off + GBT_BLOCK_HEADER_SIZE <= n && k < max) {
        off += GBT_BLOCK_HEADER_SIZE + gbt_get32(p + off + 4);
        out[k++] = off;
    }
    return k;
}

/* Exercises everything a loaded trace offers; nothing may crash. */
static void exercise(gb_trace_t *t, gb_solver_t *s, int solve)
{
    gb_trace_info_t in;
    gb_trace_get_info(t, &in);
    FILE *devnull = fopen("/dev/null", "w");
    gb_err_t e;
    if (devnull) {
        CHECK(gb_trace_print_smt2(t, devnull, &e) == 0);
        fclose(devnull);
    }
    uint8_t input[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (size_t j = 0; j < in.pcs; j++) {
        int v = gb_trace_eval_pc(t, j, input, sizeof input);
        CHECK(v == 0 || v == 1);
        if (solve && s && j < 6) {
            gb_flip_t f;
            CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
            gb_flip_clear(&f);
        }
    }
}

static void truncation(const uint8_t *p, size_t n)
{
    size_t bnd[4096];
    size_t nb = boundaries(p, n, bnd, 4096);
    CHECK(nb >= 4 && bnd[nb - 1] == n);
    size_t last_pcs = 0;
    for (size_t len = 0; len <= n; len++) {
        int at_boundary = 0;
        for (size_t i = 0; i < nb; i++)
            at_boundary |= bnd[i] == len;
        gb_trace_t *t = NULL;
        gb_err_t e = {{0}};
        int r = gb_trace_load_mem(p, len, 0, &t, &e);
        CHECK_MSG((r == 0) == at_boundary, "len %zu: r=%d %s", len, r, e.msg);
        if (r == 0) {
            gb_trace_info_t in;
            gb_trace_get_info(t, &in);
            CHECK(in.complete == (len == n) && in.truncated == 0);
            CHECK(in.pcs >= last_pcs);
            last_pcs = in.pcs;
            gb_trace_free(t);
        } else {
            CHECK(t == NULL && e.msg[0] && strstr(e.msg, "offset"));
        }
        r = gb_trace_load_mem(p, len, GB_TRACE_PREFIX_OK, &t, &e);
        CHECK_MSG((r == 0) == (len >= GBT_HEADER_SIZE), "prefix len %zu: %s", len, e.msg);
        if (r == 0) {
            gb_trace_info_t in;
            gb_trace_get_info(t, &in);
            CHECK(in.truncated == !at_boundary);
            CHECK(in.pcs == last_pcs); /* exactly the whole blocks before the cut */
            exercise(t, NULL, 0);
            gb_trace_free(t);
        }
    }
}

static void bit_flips(const uint8_t *p, size_t n, int fix_checksums, gb_solver_t *s)
{
    uint8_t *q = malloc(n);
    size_t bnd[4096];
    size_t nb = boundaries(p, n, bnd, 4096);
    int loaded = 0;
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(q, p, n);
        int flips = 1 + (int)(rnd() % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = fix_checksums ? GBT_HEADER_SIZE + GBT_BLOCK_HEADER_SIZE +
                                            rnd() % (n - GBT_HEADER_SIZE - GBT_BLOCK_HEADER_SIZE)
                                      : rnd() % n;
            q[at] ^= (uint8_t)(1u << (rnd() % 8));
        }
        if (fix_checksums) /* keep block headers intact so records are what gets tested */
            for (size_t i = 0; i + 1 < nb; i++) {
                memcpy(q + bnd[i], p + bnd[i], 8);
                gbt_put64(q + bnd[i] + 8, gb_hash64(q + bnd[i] + 16, gbt_get32(q + bnd[i] + 4), i));
            }
        size_t len = (rnd() % 8 == 0) ? rnd() % (n + 1) : n;
        gb_trace_t *t = NULL;
        gb_err_t e = {{0}};
        unsigned flags = (unsigned)(rnd() % 2);
        if (gb_trace_load_mem(q, len, flags, &t, &e) == 0) {
            loaded++;
            exercise(t, s, fix_checksums && iter % 16 == 0);
            gb_trace_free(t);
        } else {
            CHECK_MSG(e.msg[0] && strchr(e.msg, '\n') == NULL, "bad message: %s", e.msg);
        }
    }
    printf("bit flips (%s): %d of 20000 mutants loaded\n",
           fix_checksums ? "payload, checksums fixed" : "anywhere", loaded);
    free(q);
}

/* Every allocation may fail: each call either succeeds or says why. */
static void alloc_failure(const uint8_t *p, size_t n, gb_solver_t *s)
{
    int done = 0;
    for (long k = 0; !done && k < 100000; k++) {
        gb_trace_t *t = NULL;
        gb_err_t e = {{0}};
        gb_alloc_fail_after(k);
        int r = gb_trace_load_mem(p, n, 0, &t, &e);
        gb_alloc_fail_after(-1);
        if (r != 0) {
            CHECK_MSG(strstr(e.msg, "out of memory"), "k=%ld: %s", k, e.msg);
            continue;
        }
        done = 1;
        gb_trace_info_t in;
        gb_trace_get_info(t, &in);
        for (long m = 0; m < 400; m++) {
            FILE *devnull = fopen("/dev/null", "w");
            gb_alloc_fail_after(m);
            int pr = gb_trace_print_smt2(t, devnull, &e);
            gb_alloc_fail_after(-1);
            fclose(devnull);
            CHECK(pr == 0 || strstr(e.msg, "out of memory"));
            gb_flip_t f;
            size_t j = (size_t)m % in.pcs;
            gb_alloc_fail_after(m / 4);
            int fr = gb_solver_flip(s, t, j, &f, &e);
            gb_alloc_fail_after(-1);
            CHECK_MSG(fr == 0 || strstr(e.msg, "out of memory"), "flip m=%ld: %s", m, e.msg);
            gb_flip_clear(&f);
            gb_alloc_fail_after(m / 8);
            int v = gb_trace_eval_pc(t, j, (const uint8_t *)"ab", 2);
            gb_alloc_fail_after(-1);
            CHECK(v >= -1 && v <= 1);
        }
        gb_trace_free(t);
    }
    CHECK(done);
}

int main(void)
{
    gb_solver_t *s = NULL;
    gb_err_t e;
    gb_solver_opts_t o = {200, 1, 0, 0};
    CHECK(gb_solver_new(&o, &s, &e) == 0);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        tb_t *b = gen_trace(seed, 60, 12, 0, NULL);
        truncation(b->file, b->len);
        bit_flips(b->file, b->len, 0, s);
        bit_flips(b->file, b->len, 1, s);
        if (seed == 1)
            alloc_failure(b->file, b->len, s);
        tb_free(b);
    }
    gb_solver_free(s);
    return check_exit("symbolic_robust");
}
