/* SPDX-License-Identifier: Apache-2.0 */
/* gb_tmin: shrinks an input while a predicate holds. Rounds of block
 * deletion (halving sizes) and normalisation to '0' until a round changes
 * nothing; candidates already tried are never run twice. */
#include <string.h>

#include "gb_config.h"
#include "tmin_int.h"

static size_t pow2_at_least(size_t n)
{
    size_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* One deletion pass with blocks of `blk` bytes: after a kept deletion the
 * next block starts where the deleted one did. A block equal to the
 * previous one that could not go is not tried (runs of junk). */
static int delete_pass(gb_tmin_ctx_t *c, size_t blk, int *changed, gb_err_t *e)
{
    size_t pos = 0, prev_fail = SIZE_MAX;
    while (pos < c->len && !c->out_of_runs) {
        size_t n = c->len - pos < blk ? c->len - pos : blk;
        if (prev_fail != SIZE_MAX && prev_fail + n == pos &&
            memcmp(c->buf + prev_fail, c->buf + pos, n) == 0) {
            prev_fail = pos;
            pos += n;
            continue;
        }
        memcpy(c->scratch, c->buf, pos);
        memcpy(c->scratch + pos, c->buf + pos + n, c->len - pos - n);
        int r = gb_tmin_try(c, c->scratch, c->len - n, e);
        if (r < 0)
            return -1;
        if (r) {
            gb_tmin_take(c, c->scratch, c->len - n);
            *changed = 1;
            prev_fail = SIZE_MAX;
        } else {
            prev_fail = pos;
            pos += n;
        }
    }
    return 0;
}

/* Block deletion from len/16 (a power of two) down to single bytes. */
static int delete_blocks(gb_tmin_ctx_t *c, int *changed, gb_err_t *e)
{
    size_t blk = pow2_at_least(c->len / GB_TMIN_START_STEPS);
    for (;; blk /= 2) {
        if (delete_pass(c, blk, changed, e) != 0)
            return -1;
        if (blk <= 1 || c->len == 0 || c->out_of_runs)
            return 0;
    }
}

/* Replaces every occurrence of each byte value at once (the alphabet
 * step): one run per distinct value that is not '0' yet. */
static int normalise_values(gb_tmin_ctx_t *c, int *changed, gb_err_t *e)
{
    unsigned char seen[256] = {0};
    for (size_t i = 0; i < c->len; i++)
        seen[c->buf[i]] = 1;
    for (unsigned v = 0; v < 256 && !c->out_of_runs; v++) {
        if (!seen[v] || v == GB_TMIN_NORM_BYTE)
            continue;
        memcpy(c->scratch, c->buf, c->len);
        for (size_t i = 0; i < c->len; i++)
            if (c->scratch[i] == v)
                c->scratch[i] = GB_TMIN_NORM_BYTE;
        int r = gb_tmin_try(c, c->scratch, c->len, e);
        if (r < 0)
            return -1;
        if (r) {
            gb_tmin_take(c, c->scratch, c->len);
            *changed = 1;
        }
    }
    return 0;
}

/* Tries [at, at+n) set to '0' whole (*todo: how many of its bytes are not
 * '0' yet). -1 on error; 1 when that is done: taken, or nothing to do (no
 * byte to change, or no runs left); 0 when refused, for the caller to
 * split. */
static int zero_span(gb_tmin_ctx_t *c, size_t at, size_t n, size_t *todo, int *changed, gb_err_t *e)
{
    *todo = 0;
    for (size_t i = at; i < at + n; i++)
        *todo += c->buf[i] != GB_TMIN_NORM_BYTE;
    if (*todo == 0 || c->out_of_runs)
        return 1;
    memcpy(c->scratch, c->buf, c->len);
    memset(c->scratch + at, GB_TMIN_NORM_BYTE, n);
    int r = gb_tmin_try(c, c->scratch, c->len, e);
    if (r < 0)
        return -1;
    if (r) {
        gb_tmin_take(c, c->scratch, c->len);
        *changed = 1;
        return 1;
    }
    return 0;
}

/* Normalises [at, at+n) as a whole; when that does not keep the property
 * its bytes are tried one by one. Halving instead would cost nearly two
 * runs a byte where nothing can change (packed headers, checksummed
 * chunks); this costs one more run per block at worst. Blocks already all
 * '0' cost nothing. */
static int normalise_span(gb_tmin_ctx_t *c, size_t at, size_t n, int *changed, gb_err_t *e)
{
    size_t todo;
    int r = zero_span(c, at, n, &todo, changed, e);
    if (r != 0)
        return r < 0 ? -1 : 0;
    /* One byte left to change is exactly the candidate just refused. */
    if (n == 1 || todo == 1)
        return 0;
    for (size_t i = at; i < at + n && !c->out_of_runs; i++)
        if (normalise_span(c, i, 1, changed, e) != 0)
            return -1;
    return 0;
}

/* Per-block then per-byte normalisation, in blocks of GB_TMIN_NORM_BLOCK:
 * junk that the alphabet step could not clear (its values also occur
 * where they matter) usually goes a block at a time. */
static int normalise_bytes(gb_tmin_ctx_t *c, int *changed, gb_err_t *e)
{
    for (size_t at = 0; at < c->len && !c->out_of_runs; at += GB_TMIN_NORM_BLOCK) {
        size_t n = c->len - at < GB_TMIN_NORM_BLOCK ? c->len - at : GB_TMIN_NORM_BLOCK;
        if (normalise_span(c, at, n, changed, e) != 0)
            return -1;
    }
    return 0;
}

/* Sets [at, at+n) to '0' whole; a block that cannot go whole is halved
 * down to GB_TMIN_COARSE_MIN bytes, so the few bytes that matter are
 * fenced in at about two runs per level. */
static int coarse_span(gb_tmin_ctx_t *c, size_t at, size_t n, int *changed, gb_err_t *e)
{
    size_t todo;
    int r = zero_span(c, at, n, &todo, changed, e);
    if (r != 0)
        return r < 0 ? -1 : 0;
    if (n / 2 < GB_TMIN_COARSE_MIN || todo == 1)
        return 0;
    if (coarse_span(c, at, n / 2, changed, e) != 0)
        return -1;
    return coarse_span(c, at + n / 2, n - n / 2, changed, e);
}

/* Before the first deletion: blocks of len/16 set to '0' (coarse_span).
 * Junk then reads as runs of equal blocks, which deletion skips after the
 * first that cannot go, and the value step has fewer values to try. */
static int normalise_coarse(gb_tmin_ctx_t *c, int *changed, gb_err_t *e)
{
    size_t blk = pow2_at_least(c->len / GB_TMIN_START_STEPS);
    for (size_t at = 0; at < c->len && !c->out_of_runs; at += blk)
        if (coarse_span(c, at, c->len - at < blk ? c->len - at : blk, changed, e) != 0)
            return -1;
    return 0;
}

/* Rounds of deletion and normalisation until one changes nothing. */
static int classic_rounds(gb_tmin_ctx_t *c, gb_err_t *e)
{
    int changed = 1;
    if (normalise_coarse(c, &changed, e) != 0)
        return -1;
    while (changed && !c->out_of_runs) {
        changed = 0;
        c->st->rounds++;
        if (delete_blocks(c, &changed, e) != 0)
            return -1;
        /* After the first round the bytes left were normalised already:
         * only a deletion gives the value and byte steps something new
         * (afl-tmin stops the same way). */
        if (c->st->rounds > 1 && !changed)
            break;
        if (normalise_values(c, &changed, e) != 0 || normalise_bytes(c, &changed, e) != 0)
            return -1;
    }
    return 0;
}

int gb_tmin(const gb_tmin_opts_t *o, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len,
            gb_tmin_stats_t *st, gb_err_t *e)
{
    if (!o || !o->pred || !out || !out_len || !st || (len && !in))
        return gb_err_set(e, "gb_tmin: missing argument");
    memset(st, 0, sizeof *st);
    st->len_in = st->len_after_solver = len;
    uint64_t t0 = gb_mono_ms();
    gb_tmin_ctx_t c = {.o = o, .st = st, .len = len};
    /* The solver step may lengthen nothing but its models may ask for a
     * longer input (a length field): room for GB_MAX_INPUT covers both. */
    size_t cap = len > GB_MAX_INPUT ? len : GB_MAX_INPUT;
    c.buf = gb_malloc(cap + 1);
    c.scratch = gb_malloc(cap + 1);
    c.cap = cap;
    int rc = c.buf && c.scratch ? 0 : gb_err_set(e, "out of memory");
    if (rc == 0) {
        memcpy(c.buf, in, len);
        if (gb_hset_add(&c.tried, gb_hash64(in, len, len)) < 0)
            rc = gb_err_set(e, "out of memory");
    }
    if (rc == 0 && o->trace_bin)
        rc = gb_tmin_solve(&c, e);
    if (rc == 0)
        rc = classic_rounds(&c, e);
    gb_free(c.scratch);
    gb_hset_free(&c.tried);
    st->time_ms = gb_mono_ms() - t0;
    if (rc != 0) {
        gb_free(c.buf);
        return -1;
    }
    st->len_out = c.len;
    *out = c.buf;
    *out_len = c.len;
    return 0;
}
