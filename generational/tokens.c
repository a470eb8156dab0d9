/* SPDX-License-Identifier: Apache-2.0 */
/* Token repetition (issue 37): children that repeat a keyword the run's
 * tokenizer matched. A flip changes bytes in place, so it writes a keyword
 * where a word was, but a format that wants the same keyword n times (a
 * block of n items) counts them in a plain variable that no entry of the
 * path constraint holds: no flip can ask for one more. A token that
 * matched a compare is copied, with its separator, right behind itself. */
#include <string.h>

#include "search_int.h"

/* A token: input bytes [at, at + n), matched by a compare, and the unit
 * that repeats it: the token and the separator after it, inserted at
 * `ins` (just behind the separator), or the separator before it and the
 * token, inserted at its end when it ends the input. */
typedef struct token {
    size_t at, n, unit_at, ins;
} token_t;

static int separator(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';';
}

static int printable(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] <= ' ' || p[i] > '~')
            return 0;
    return 1;
}

/* The token of entry j of `t` (traced from `it`), if it is one a text's
 * tokenizer matched: printable bytes with a separator after them (or
 * before them, at the input's end). */
static int token_of(const gb_item_t *it, const gb_trace_t *t, size_t j, token_t *tk)
{
    uint64_t lo, hi;
    if (!gb_trace_pc_token(t, j, it->data, it->len, &lo, &hi) || !printable(it->data + lo, hi - lo))
        return 0;
    *tk = (token_t){.at = lo, .n = hi - lo};
    if (hi < it->len && separator(it->data[hi])) {
        tk->unit_at = lo;
        tk->ins = hi + 1;
        return 1;
    }
    if (hi == it->len && lo > 0 && separator(it->data[lo - 1])) {
        tk->unit_at = lo - 1;
        tk->ins = hi;
        return 1;
    }
    return 0;
}

/* Whether the bytes of token k are those of one in v[0 .. n). */
static int known(const gb_item_t *it, const token_t *v, size_t n, const token_t *k)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].n == k->n && memcmp(it->data + v[i].at, it->data + k->at, k->n) == 0)
            return 1;
    return 0;
}

/* `it` with the unit of `tk` inserted `reps` times; NULL when too long or
 * out of memory. */
static gb_item_t *repeated(gb_search_t *s, const gb_item_t *it, const token_t *tk, size_t reps)
{
    size_t unit = tk->n + 1, len = it->len + reps * unit;
    if (len > GB_MAX_INPUT)
        return NULL;
    uint8_t *d = gb_malloc(len);
    if (!d)
        return NULL;
    memcpy(d, it->data, tk->ins);
    for (size_t r = 0; r < reps; r++)
        memcpy(d + tk->ins + r * unit, it->data + tk->unit_at, unit);
    memcpy(d + tk->ins + reps * unit, it->data + tk->ins, it->len - tk->ins);
    gb_item_t *c = gb_item_new(d, len, s->seq++);
    gb_free(d);
    return c;
}

/* Runs child c of `it`; keeps it when it covered a new block or crashed,
 * as a seed is kept: no predicted path, flipped from its first entry. A
 * new hit count alone does not keep it: one more token nearly always
 * makes one, and each kept child is a whole expansion. 0, or -1 on a
 * fatal error. */
static int try_child(gb_search_t *s, const gb_item_t *it, gb_item_t *c, const token_t *tk,
                     size_t reps, gb_err_t *e)
{
    int fresh = gb_run_fresh(&s->run, c->data, c->len, 0);
    if (fresh <= 0) {
        gb_item_free(c);
        if (fresh < 0)
            return gb_err_set(e, "out of memory");
        s->st.duplicates++;
        return 0;
    }
    gb_item_adopt(c, it);
    s->st.children++;
    s->st.tokens++;
    char desc[160], tag[32];
    snprintf(tag, sizeof tag, ",rep:%zu", reps);
    gb_item_desc(desc, sizeof desc, it, "token", tk->at, tag);
    gb_run_kind_t kind = gb_run_check(s, c, desc, e);
    if (kind == GB_KIND_FATAL) {
        gb_item_free(c);
        return -1;
    }
    if (kind <= GB_KIND_HUNG || (kind == GB_KIND_RAN && !c->score)) {
        gb_item_free(c);
        return 0;
    }
    return gb_run_keep(s, c, kind, desc, e);
}

int gb_tokens_repeat(gb_search_t *s, const gb_item_t *it, const gb_trace_t *t, gb_err_t *e)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    if (info.input_len != it->len || !it->data)
        return 0; /* the trace is of other bytes (never: the caller traced it) */
    token_t v[GB_TOKENS_PER_RUN];
    size_t n = 0;
    for (size_t j = info.pcs; j-- > 0 && n < GB_TOKENS_PER_RUN;) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind != GBT_PC_BRANCH && pc.kind != GBT_PC_SWITCH)
            continue;
        token_t tk;
        if (token_of(it, t, j, &tk) && !known(it, v, n, &tk))
            v[n++] = tk;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < GB_TOKEN_REPS && !gb_search_out_of_time(s); r++) {
            gb_item_t *c = repeated(s, it, &v[i], (size_t)1 << r);
            if (c && try_child(s, it, c, &v[i], (size_t)1 << r, e) != 0)
                return -1;
        }
    return 0;
}
