/* SPDX-License-Identifier: Apache-2.0 */
/* ExpandExecution: trace an input, then flip each path-constraint entry from
 * its bound on (paying sites first, CFG-dead and backed-off flips skipped),
 * Combine each model with the input into a child (child.bound = j + 1) and
 * Run&Check it; optimistic children are repaired at once. */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gbt.h"
#include "search_int.h"

static uint64_t dir_key(uint32_t site, unsigned dir)
{
    return ((uint64_t)site << 1 | dir) + 1;
}

/* The n-th time (2 <= n <= GB_DEPTH_MAX, base/gb_config.h) a path takes
 * (site, dir). */
static uint64_t depth_key(uint32_t site, unsigned dir, uint64_t n)
{
    return n << 33 | ((uint64_t)site << 1 | dir);
}

/* Whether the n-th taking of (site, dir) would be new to the search. */
static int dir_is_new(const gb_expand_state_t *x, uint32_t site, unsigned dir, uint64_t n)
{
    if (n <= 1)
        return !gb_hset_has(&x->dirs, dir_key(site, dir));
    return n <= GB_DEPTH_MAX && !gb_hset_has(&x->depths, depth_key(site, dir, n));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Remembers every (site, direction) of the trace and how often it took
 * each, up to GB_DEPTH_MAX (the occurrences are counted by sorting the
 * keys); 1 if a direction is new (no trace took it), -1 on OOM. Taking one
 * more often than any trace is not progress here (loops over data would
 * make most traces progress): it only ranks the child that is predicted to
 * do it (make_child). */
static int note_dirs(gb_expand_state_t *x, const gb_trace_t *t, size_t pcs)
{
    uint64_t *k = gb_malloc((pcs ? pcs : 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = 0;
    for (size_t j = 0; j < pcs; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind != GBT_PC_PIN)
            k[n++] = dir_key(pc.site, pc.taken);
    }
    qsort(k, n, sizeof *k, cmp_u64);
    int fresh = 0, r = 0;
    for (size_t i = 0, occ = 1; i < n && r >= 0; i++) {
        occ = i > 0 && k[i] == k[i - 1] ? occ + 1 : 1;
        uint32_t site = (uint32_t)((k[i] - 1) >> 1);
        unsigned dir = (unsigned)((k[i] - 1) & 1);
        if (occ == 1) {
            r = gb_hset_add(&x->dirs, k[i]);
            fresh |= r > 0;
        } else if (occ <= GB_DEPTH_MAX)
            r = gb_hset_add(&x->depths, depth_key(site, dir, occ));
    }
    gb_free(k);
    return r < 0 ? -1 : fresh;
}

/* Progress the trace of `it` shows that no block may show: a branch
 * direction no trace took before (note_dirs), or input bytes used further
 * on than its parent's trace used (one more record, one more item). 1 if
 * there was progress, 0 if not, -1 on OOM. */
static int note_progress(gb_search_t *s, const gb_item_t *it, const gb_trace_t *t)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    int fresh = note_dirs(&s->exp, t, info.pcs);
    if (fresh < 0)
        return -1;
    int further = info.read_end > it->parent_read_end;
    s->st.progress += (uint64_t)(fresh || further);
    return fresh || further;
}

/* Runs the trace build on `it`; NULL (and a counted failure) if no usable
 * trace came out. *progress (may be NULL) says whether the trace made
 * progress (note_progress). */
static gb_trace_t *trace_item(gb_search_t *s, gb_item_t *it, int *progress, gb_err_t *e)
{
    gb_campaign_unplant(s->camp, strrchr(s->exp.trace_input, '/') + 1); /* a planted link goes */
    if (gb_write_atomic(s->exp.trace_input, gb_campaign_tmpdir(s->camp), it->data, it->len, e) != 0)
        return NULL;
    /* The trace build keeps shadow state: it gets GB_TRACE_MEM_FACTOR times the memory. */
    gb_trace_run_opts_t to = {.bin = s->o.trace_bin,
                              .args = s->o.target_args,
                              .nargs = s->o.n_target_args,
                              .input = s->exp.trace_input,
                              .trace_out = s->exp.trace_file,
                              .timeout_ms = s->o.trace_timeout_ms,
                              .mem_limit_mb = s->o.mem_limit_mb * GB_TRACE_MEM_FACTOR};
    gb_run_result_t r;
    if (gb_trace_run(&to, &r, e) != 0)
        return NULL;
    s->st.traces++;
    gb_trace_t *t = NULL;
    if (r.status == GB_RUN_OK && access(s->exp.trace_file, F_OK) != 0) {
        s->exp.trace_missing++; /* it exited without ever opening its input */
        return NULL;
    }
    if (gb_trace_load(s->exp.trace_file, GB_TRACE_PREFIX_OK, &t, e) != 0)
        return NULL;
    s->exp.trace_seen++;
    int p = note_progress(s, it, t);
    if (p < 0) {
        gb_trace_free(t);
        gb_err_set(e, "out of memory");
        return NULL;
    }
    if (progress)
        *progress = p;
    return t;
}

/* The first entry where the trace left the path the item was predicted to
 * follow, or SIZE_MAX if it kept to it. */
static size_t divergence(const gb_item_t *it, const gb_trace_t *t, size_t pcs)
{
    for (size_t d = 0; d < it->n_predicted; d++) {
        if (d >= pcs)
            return d;
        gb_pc_info_t pc;
        gb_trace_get_pc(t, d, &pc);
        gb_step_t p = gb_item_step(it, d);
        if (pc.site != p.site || pc.taken != p.taken || pc.kind != p.kind)
            return d;
    }
    return SIZE_MAX;
}

/* The path of trace t, shared by its children: made at its first child,
 * kept until the trace is freed (free_trace). NULL when out of memory. */
static gb_path_t *path_of(gb_expand_state_t *x, const gb_trace_t *t)
{
    size_t n = sizeof x->paths / sizeof x->paths[0], slot = n;
    for (size_t i = 0; i < n; i++) {
        if (x->paths[i].t == t && x->paths[i].p)
            return x->paths[i].p;
        if (!x->paths[i].p && slot == n)
            slot = i;
    }
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    gb_path_t *p = gb_malloc(sizeof *p + info.pcs * sizeof p->step[0]);
    if (!p)
        return NULL;
    p->refs = 0;
    p->n = (uint32_t)info.pcs;
    for (size_t k = 0; k < info.pcs; k++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, k, &pc);
        p->step[k] = (gb_step_t){pc.site, (uint8_t)pc.kind, (uint8_t)pc.taken};
    }
    if (slot < n) { /* else (no free slot: never, traces nest GB_MAX_REPAIRS deep) unshared */
        p->refs = 1;
        x->paths[slot].t = t;
        x->paths[slot].p = p;
    }
    return p;
}

/* Frees trace t and lets go of its path (its children keep theirs). */
static void free_trace(gb_expand_state_t *x, gb_trace_t *t)
{
    for (size_t i = 0; t && i < sizeof x->paths / sizeof x->paths[0]; i++)
        if (x->paths[i].t == t && x->paths[i].p) {
            gb_path_release(x->paths[i].p);
            x->paths[i].p = NULL;
            x->paths[i].t = NULL;
        }
    gb_trace_free(t);
}

/* The child of flip j's model: Combine, or with the bytes a longer input
 * needs inserted at `at` (SIZE_MAX: appended, as SAGE does). */
static gb_item_t *make_child(gb_search_t *s, const gb_item_t *parent, const gb_trace_t *t,
                             size_t j, const gb_model_t *m, size_t at)
{
    size_t len;
    uint8_t *data =
        at == SIZE_MAX ? gb_model_apply(parent->data, parent->len, m, GB_MAX_INPUT, &len)
                       : gb_model_apply_at(parent->data, parent->len, m, at, GB_MAX_INPUT, &len);
    gb_item_t *c = data ? gb_item_new(data, len, s->seq++) : NULL;
    gb_free(data);
    if (!c)
        return NULL;
    c->bound = j + 1;
    if (!(c->path = path_of(&s->exp, t))) {
        gb_item_free(c);
        return NULL;
    }
    c->path->refs++;
    c->n_predicted = j + 1;
    uint64_t occ = 0; /* how often the path takes the flipped direction, this time included */
    gb_step_t to = gb_item_step(c, j);
    for (size_t k = 0; k <= j; k++) {
        gb_step_t st = gb_item_step(c, k);
        occ += st.site == to.site && st.taken == to.taken && st.kind != GBT_PC_PIN;
    }
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    c->parent_read_end = info.read_end;
    c->hint = dir_is_new(&s->exp, to.site, to.taken, 1)     ? GB_HINT_NEW_DIR
              : dir_is_new(&s->exp, to.site, to.taken, occ) ? GB_HINT_DEPTH
              : s->exp.progress_now                         ? GB_HINT_PARENT
                                                            : GB_HINT_NONE;
    return c;
}

/* What solve_flip decided, and which stage decided it (directed mode
 * tells an exact refutation from a guess by it). Whether a model was
 * optimistic is the flip's own f->optimistic. */
typedef struct flip_answer {
    gb_qstatus_t status;
    gb_stage_t stage;
} flip_answer_t;

/* Solves flip j of `t` (traced from `it`): GB_Q_SAT with a model in *f
 * (clear it); any other answer leaves *f clear. A solver error loses this
 * query, not the campaign: it decides nothing (GB_Q_SKIP, GB_STAGE_NONE). */
static flip_answer_t solve_flip(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                                gb_flip_t *f, gb_err_t *e)
{
    memset(f, 0, sizeof *f);
    gb_solver_set_input(s->solver, it->data, it->len); /* the interval stage's defaults */
    int fr = gb_solver_flip(s->solver, t, j, f, e);
    gb_solver_set_input(s->solver, NULL, 0);
    flip_answer_t a = {GB_Q_SKIP, GB_STAGE_NONE};
    if (fr == 0)
        a = (flip_answer_t){f->status, f->stage};
    if (a.status != GB_Q_SAT)
        gb_flip_clear(f);
    return a;
}

/* A child to make of flip j's model: its new bytes at `at` (SIZE_MAX:
 * appended, or none), and whether it is extra (directed mode: made by the
 * relaxed last resort, relaxed_child; a child of an extra input is extra
 * anyway). */
typedef struct child_arg {
    size_t j;
    const gb_flip_t *f;
    size_t at;
    int extra;
} child_arg_t;

/* The child `a` describes, run and scored. Returns it (or NULL: duplicate, hang)
 * and its run kind in *kind; GB_KIND_FATAL on a fatal error. */
static gb_item_t *run_child(gb_search_t *s, gb_item_t *it, const gb_trace_t *t,
                            const child_arg_t *a, const char *tag, gb_run_kind_t *kind, gb_err_t *e)
{
    *kind = GB_KIND_HUNG;
    size_t j = a->j, at = a->at;
    const gb_flip_t *f = a->f;
    gb_item_t *c = make_child(s, it, t, j, &f->model, at);
    int extra = it->extra || a->extra;
    int fresh = c ? gb_run_fresh(&s->run, c->data, c->len, extra) : -1;
    if (fresh <= 0) {
        if (fresh < 0) {
            gb_err_set(e, "out of memory");
            *kind = GB_KIND_FATAL;
        } else
            s->st.duplicates++;
        gb_item_free(c);
        return NULL;
    }
    c->optimistic = f->optimistic;
    c->extra = extra;
    gb_item_adopt(c, it);
    s->st.children++;
    s->st.inserted += at != SIZE_MAX;
    char desc[160], tags[32];
    snprintf(tags, sizeof tags, "%s%s", f->optimistic ? tag : "", at != SIZE_MAX ? ",ins" : "");
    gb_item_desc(desc, sizeof desc, it, "gen", j, tags);
    *kind = gb_run_check(s, c, desc, e);
    if (*kind <= GB_KIND_HUNG) {
        gb_item_free(c);
        return NULL;
    }
    return c;
}

/* solve_flip, then run_child with the model's bytes where it put them. */
static gb_item_t *solve_child(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                              const char *tag, gb_run_kind_t *kind, gb_err_t *e)
{
    gb_flip_t f;
    *kind = GB_KIND_HUNG;
    if (solve_flip(s, it, t, j, &f, e).status != GB_Q_SAT)
        return NULL;
    child_arg_t a = {j, &f, SIZE_MAX, 0};
    gb_item_t *c = run_child(s, it, t, &a, tag, kind, e);
    gb_flip_clear(&f);
    return c;
}

static int keep_child(gb_search_t *s, gb_item_t *c, gb_run_kind_t kind, size_t j, gb_err_t *e);

/* Where to repair child c whose trace t first left its predicted path at
 * entry d. A site the predicted path took both ways (a loop's test) may
 * well go on longer by design: the flip made a length longer, and putting
 * that back is what the repair must not do. Then the entry to repair is
 * the first one from d on whose site the predicted path took, but only
 * the other way (a checksum compare that passed before and fails now).
 * SIZE_MAX when there is none. */
static size_t repair_point(const gb_item_t *c, const gb_trace_t *t, size_t d, size_t pcs)
{
    gb_u64set_t both = {0}, once[2] = {{0}, {0}};
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < c->n_predicted; i++) {
        gb_step_t p = gb_item_step(c, i);
        if (gb_hset_add(&once[p.taken & 1], p.site) < 0)
            goto done;
        if (gb_hset_has(&once[!(p.taken & 1)], p.site) && gb_hset_add(&both, p.site) < 0)
            goto done;
    }
    gb_pc_info_t pc;
    gb_trace_get_pc(t, d, &pc);
    if (!gb_hset_has(&both, pc.site)) {
        at = d; /* an ordinary divergence */
        goto done;
    }
    for (size_t i = d + 1; i < pcs; i++) {
        gb_trace_get_pc(t, i, &pc);
        if (pc.kind != GBT_PC_PIN && gb_hset_has(&once[!pc.taken], pc.site) &&
            !gb_hset_has(&once[pc.taken], pc.site)) {
            at = i;
            break;
        }
    }
done:
    gb_hset_free(&both);
    gb_hset_free(&once[0]);
    gb_hset_free(&once[1]);
    return at;
}

/* The bytes whose change made a child, at their place in it, with its
 * values: what its repairs must keep. */
typedef struct keep {
    uint64_t *off;
    uint8_t *val;
    size_t n;
} keep_t;

/* An optimistic child usually breaks a check that the solver was allowed
 * to ignore (a checksum over pinned bytes). Trace it at once and flip the
 * entry where it left the path its flip asked for (repair_point), keeping
 * the bytes k whose change made it and without ¬PC alone; the repaired
 * grandchild aims at the same path, so a second broken checksum further
 * on is repaired in the next round, up to GB_MAX_REPAIRS rounds. A child
 * that found something new on its own is kept as well. */
static int repair(gb_search_t *s, gb_item_t *c, gb_run_kind_t kind, size_t j, int depth,
                  const keep_t *k, gb_err_t *e)
{
    gb_err_t te;
    gb_trace_t *t = depth < GB_MAX_REPAIRS ? trace_item(s, c, NULL, &te) : NULL;
    size_t d = SIZE_MAX, pcs = 0;
    if (t) {
        gb_trace_info_t info;
        gb_trace_get_info(t, &info);
        pcs = info.pcs;
        d = divergence(c, t, pcs);
        if (d < pcs)
            d = repair_point(c, t, d, pcs);
    }
    gb_run_kind_t rkind = GB_KIND_HUNG;
    gb_item_t *r = NULL;
    if (d < pcs) {
        /* Keeping the path c was made for: no ¬PC alone, the bytes whose
         * change made c kept (a chunk's new length is not put back to 0 to
         * make its checksum easy). */
        gb_solver_set_last_resort(s->solver, 0);
        gb_solver_set_keep(s->solver, k->off, k->val, k->n);
        r = solve_child(s, c, t, d, ",opt", &rkind, e);
        gb_solver_set_keep(s->solver, NULL, NULL, 0);
        gb_solver_set_last_resort(s->solver, 1);
    }
    free_trace(&s->exp, t);
    if (rkind == GB_KIND_FATAL) {
        gb_item_free(c);
        return -1;
    }
    if (!r)
        return keep_child(s, c, kind, j, e);
    s->st.repaired++;
    gb_path_release(r->path); /* r aims where c aimed */
    r->path = c->path;
    r->n_predicted = c->n_predicted;
    r->bound = c->bound;
    c->path = NULL;
    c->n_predicted = 0;
    r->optimistic = 1;
    if ((c->score || c->novelty) && keep_child(s, c, kind, j, e) != 0) {
        gb_item_free(r);
        return -1;
    }
    if (!c->score && !c->novelty)
        gb_item_free(c);
    return repair(s, r, rkind, j, depth + 1, k, e);
}

static int keep_child(gb_search_t *s, gb_item_t *c, gb_run_kind_t kind, size_t j, gb_err_t *e)
{
    char desc[160];
    gb_src_desc(desc, sizeof desc, c->src_id, c->src_crash, "gen", j, c->optimistic ? ",opt" : "");
    return gb_run_keep(s, c, kind, desc, e);
}

/* Flip selection from the static CFG: 1 when flipping `pc` cannot reach a
 * block no run has covered, so the flip is skipped (and counted). */
static int cfg_skip(gb_search_t *s, const gb_pc_info_t *pc)
{
    if (!s->cfg)
        return 0;
    int may = gb_cfg_flip_may_reach(s->cfg, pc->kind, pc->site, pc->taken, s->cov.virgin,
                                    s->cov.blocks);
    if (gb_cfg_incomplete(s->cfg))
        gb_notice(s, GB_NOTE_CFG_PART, "a run covered blocks the static CFG does not list "
                                       "(code built without it, e.g. a shared library): every "
                                       "flip is solved from now on");
    s->st.flips_skipped_cfg += !may;
    return !may;
}

/* Remembers that flip j of `it` was backed off, for a retry round (out of
 * memory, it is not retried: nothing worse). */
static void skipped_add(gb_item_t *it, size_t j)
{
    if (gb_grow(&it->skipped, &it->skipped_cap, it->nskipped + 1, sizeof *it->skipped, 16) == 0)
        it->skipped[it->nskipped++] = (uint32_t)j;
}

/* Where a model that makes the input longer wants its new bytes: after
 * the last input byte the flipped condition reads (a chunk's length field:
 * the chunk grows in place, the chunks after it stay whole). SIZE_MAX
 * when that is the end anyway, or the model keeps the length. */
static size_t insert_at(const gb_item_t *it, const gb_trace_t *t, size_t j, const gb_model_t *m)
{
    if (gb_model_length(m, it->len, GB_MAX_INPUT) <= it->len)
        return SIZE_MAX;
    uint64_t at = gb_trace_pc_read_end(t, j);
    return at > 0 && at < it->len ? (size_t)at : SIZE_MAX;
}

/* The keep set of child c, made from `it` by model m with its new bytes
 * inserted at `at` (SIZE_MAX: appended); k->n = 0 when out of memory. */
static void keep_of(const gb_item_t *it, const gb_item_t *c, const gb_model_t *m, size_t at,
                    keep_t *k)
{
    k->off = gb_calloc(m->n ? m->n : 1, sizeof *k->off);
    k->val = gb_calloc(m->n ? m->n : 1, 1);
    k->n = 0;
    size_t grow = c->len > it->len ? c->len - it->len : 0;
    for (size_t i = 0; k->off && k->val && i < m->n; i++) {
        uint64_t o = m->offsets[i];
        if (gbt_is_len_offset(o))
            continue; /* the length may have to grow further */
        if (at != SIZE_MAX)
            o = gb_model_place(o, it->len, at, grow);
        if (o < c->len) {
            k->off[k->n] = o;
            k->val[k->n++] = c->data[o];
        }
    }
}

/* The child `a` describes, kept or repaired: 0, or -1 on a fatal error. */
static int one_child(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, const child_arg_t *a,
                     gb_err_t *e)
{
    gb_run_kind_t kind;
    gb_item_t *c = run_child(s, it, t, a, ",opt", &kind, e);
    if (!c)
        return kind == GB_KIND_FATAL ? -1 : 0;
    if (!c->optimistic)
        return keep_child(s, c, kind, a->j, e);
    keep_t k;
    keep_of(it, c, &a->f->model, a->at, &k);
    int rc = repair(s, c, kind, a->j, 0, &k, e);
    gb_free(k.off);
    gb_free(k.val);
    return rc;
}

/* Directed mode: a flip the new direction of which cannot reach a target
 * in the CFG is skipped. A CFG that misses blocks runs covered skips
 * nothing, and the proof loses its footing. */
static int goal_skip(gb_search_t *s, const gb_pc_info_t *pc)
{
    int may = gb_cfg_flip_may_reach_goal(s->cfg, pc->kind, pc->site, pc->taken, s->reach.goal,
                                         s->cov.virgin, s->cov.blocks);
    if (gb_cfg_incomplete(s->cfg))
        gb_reach_hole(&s->reach, "a run covered blocks the static CFG does not list");
    s->st.flips_skipped_cfg += !may;
    return !may;
}

/* The child of ¬PC[j] alone, after the exact query was refuted: the
 * relaxed last resort of plain fuzzing, which a proof may not use. Such a
 * child and all its descendants are extra (it->extra): searched, ordered
 * by distance like the rest, able to reach a target, and booked nowhere
 * in the proof, which stays the exact tree's. A parser that branches on
 * bits of a byte before it compares the byte needs this: the compare is
 * refuted under the bits taken, and the exact search would have to find
 * the diamond to flip first (bench/reach/progs/diamonds.c). */
static int relaxed_child(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                         gb_err_t *e)
{
    gb_flip_t f;
    if (solve_flip(s, it, t, j, &f, e).status != GB_Q_SAT)
        return 0;
    child_arg_t a = {j, &f, SIZE_MAX, 1};
    int rc = one_child(s, it, t, &a, e);
    gb_flip_clear(&f);
    return rc;
}

/* One flip in directed mode (docs/reach.md): pruned by the bound or the
 * CFG, or solved with no back-off and, while a proof may still come out,
 * without the relaxed last resort; every outcome is booked for the proof:
 * an exact refutation, a child that will be checked to follow its
 * prefix, or a hole. An extra input's flips (relaxed_child) are booked
 * nowhere. */
static int flip_directed(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                         const gb_pc_info_t *pc, const uint8_t *over, gb_err_t *e)
{
    gb_reach_t *r = &s->reach;
    if (over && over[j]) {
        r->bound_pruned += !it->extra;
        return 0;
    }
    if (goal_skip(s, pc)) {
        r->cfg_pruned += !it->extra;
        return 0;
    }
    int exact = gb_reach_alive(r) && !it->extra;
    gb_solver_set_last_resort(s->solver, !exact);
    gb_flip_t f;
    flip_answer_t ans = solve_flip(s, it, t, j, &f, e);
    gb_solver_set_last_resort(s->solver, 1);
    if (ans.status != GB_Q_SAT) {
        if (it->extra)
            return 0;
        if (ans.status == GB_Q_UNSAT || (ans.status == GB_Q_SKIP && ans.stage == GB_STAGE_SLICE)) {
            r->refuted++; /* exact: Z3, a clause, intervals, or a constant condition */
            if (exact && ans.status == GB_Q_UNSAT)
                return relaxed_child(s, it, t, j, e);
        } else
            gb_reach_hole(r, "a flip was not decided (%s)",
                          ans.status == GB_Q_TIMEOUT ? "solver timeout or budget" : "solver error");
        return 0;
    }
    if (f.optimistic && !it->extra)
        gb_reach_hole(r, "a flip was answered only by a relaxed (optimistic) query");
    uint64_t kept = r->kept;
    child_arg_t a = {j, &f, SIZE_MAX, 0};
    size_t at = insert_at(it, t, j, &f.model);
    int rc = one_child(s, it, t, &a, e);
    if (rc == 0 && !f.optimistic && !it->extra) {
        if (r->kept == kept)
            gb_reach_hole(r, "a flip's input was a duplicate, hung, or could not run");
        else
            r->children++;
    }
    if (rc == 0 && at != SIZE_MAX) {
        a.at = at;
        rc = one_child(s, it, t, &a, e);
    }
    gb_flip_clear(&f);
    return rc;
}

static int flip_one(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                    const uint8_t *over, gb_err_t *e)
{
    gb_pc_info_t pc;
    gb_trace_get_pc(t, j, &pc);
    if (s->reach.on)
        return flip_directed(s, it, t, j, &pc, over, e);
    if (cfg_skip(s, &pc))
        return 0;
    /* an equality's first ask for a constant passes the back-off: a table
     * walk's next entry (sites.c); before gb_sites_get, as it moves them */
    uint64_t v;
    int fresh = gb_trace_pc_const(t, j, &v) && gb_sites_new_const(&s->sites, pc.site, !pc.taken, v);
    gb_site_stat_t *ss = gb_sites_get(&s->sites, pc.site, !pc.taken);
    int backed_off = ss && !gb_sites_worth(ss);
    s->st.flips_new_const += backed_off && fresh && !it->retries;
    /* a retry flips what was backed off: that is what it is for */
    if (backed_off && !fresh && !it->retries) {
        ss->unpaid++;
        s->st.flips_backoff++;
        skipped_add(it, j);
        return 0;
    }
    /* the cheap queries first: a direction that timed out twice waits */
    if (ss && ss->timeouts >= GB_SITE_TIMEOUTS && !it->retries) {
        s->st.flips_deferred++;
        skipped_add(it, j);
        return 0;
    }
    uint64_t blocks = s->cov.blocks, novel = s->cov.novel_total, crashes = s->st.crashes;
    uint64_t children = s->st.children;
    gb_flip_t f;
    flip_answer_t ans = solve_flip(s, it, t, j, &f, e);
    if (ans.status != GB_Q_SAT) {
        if (ans.status == GB_Q_TIMEOUT) {
            s->st.flips_timed_out++;
            if (ss)
                ss->timeouts++;
            if (it->retries < GB_RETRY_PATIENCE_MAX) /* again when dry, with more time */
                skipped_add(it, j);
        }
        return 0;
    }
    /* A longer input: appended (SAGE) and, when the condition read bytes
     * before the end, also inserted there. */
    child_arg_t a = {j, &f, SIZE_MAX, 0};
    size_t at = insert_at(it, t, j, &f.model);
    int rc = one_child(s, it, t, &a, e);
    if (rc == 0 && at != SIZE_MAX) {
        a.at = at;
        rc = one_child(s, it, t, &a, e);
    }
    gb_flip_clear(&f);
    if (ss && s->st.children != children) /* duplicates alone are no try */
        gb_sites_record(ss, s->cov.blocks != blocks || s->cov.novel_total != novel ||
                                s->st.crashes != crashes);
    return rc;
}

typedef struct flip_pos {
    size_t j;
    uint32_t paid; /* directed mode: the static distance of the new direction */
    uint32_t opens; /* the new direction starts at a block no run hit */
} flip_pos_t;

static int by_distance(const void *a, const void *b)
{
    const flip_pos_t *x = a, *y = b;
    if (x->paid != y->paid)
        return x->paid < y->paid ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static int by_payoff(const void *a, const void *b)
{
    const flip_pos_t *x = a, *y = b;
    if (x->opens != y->opens)
        return x->opens > y->opens ? -1 : 1;
    if (x->paid != y->paid)
        return x->paid > y->paid ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* The entries to flip, from `bound` on (pins left out), or only those of
 * `only` (a retry round's backed-off flips, a suspended expansion's rest):
 * first the flips whose new direction starts at a block no run has hit
 * (the coverage's frontier: such a child covers a new block if it takes
 * the direction), then the directions whose children found something new
 * before, most payoffs first, so a time limit, an exhausted solver budget
 * or a slice's end (GB_EXPAND_SLICE) cuts the least promising flips; the
 * rest keep path order. NULL on OOM. */
static flip_pos_t *flip_order(gb_search_t *s, const gb_trace_t *t, size_t bound, size_t pcs,
                              const uint32_t *only, size_t nonly, size_t *n)
{
    size_t cap = only ? nonly : pcs > bound ? pcs - bound : 0;
    flip_pos_t *v = gb_calloc(cap ? cap : 1, sizeof *v);
    *n = 0;
    for (size_t i = 0; v && i < cap; i++) {
        size_t j = only ? only[i] : bound + i;
        if (j < bound || j >= pcs)
            continue; /* a retried input traced differently: its old positions are stale */
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind == GBT_PC_PIN)
            continue;
        if (s->reach.on) { /* nearest the targets first */
            v[(*n)++] = (flip_pos_t){j, gb_cfg_flip_distance(s->cfg, pc.kind, pc.site, pc.taken), 0};
            continue;
        }
        gb_site_stat_t *ss = gb_sites_get(&s->sites, pc.site, !pc.taken);
        uint32_t opens = (uint32_t)gb_cfg_flip_opens(s->cfg, pc.kind, pc.site, pc.taken,
                                                     s->cov.virgin);
        v[(*n)++] = (flip_pos_t){j, ss ? ss->paid : 0, opens};
    }
    if (v)
        qsort(v, *n, sizeof *v, s->reach.on ? by_distance : by_payoff);
    return v;
}

/* 1 when an input that covered new blocks (directed mode: that came
 * nearer a target than `it`) waits on the worklist. */
static int better_waits(const gb_search_t *s, const gb_item_t *it)
{
    const gb_item_t *top = gb_worklist_peek(&s->work);
    if (s->reach.on)
        return top && top->dist < it->dist;
    return top && top->score > 0;
}

/* 1 when the expansion part begun at `start_ms` has run its time slice
 * (--slice-seconds; none when 0) and any other input waits (not in
 * directed mode, whose order is the distance to the targets). */
static int slow_slice(const gb_search_t *s, uint64_t start_ms)
{
    return !s->reach.on && s->o.slice_ms && gb_worklist_peek(&s->work) &&
           gb_time_ms() - start_ms >= s->o.slice_ms;
}

/* 1 when `it` was expanded before: what waits is a suspended expansion's
 * rest (it->pending) or a retry's flips. */
static int expanded_before(const gb_item_t *it)
{
    return it->pending != NULL || it->retries;
}

/* 1 when an input waits for its first expansion. The whole worklist is
 * looked at, since such an input need not be its top; called only once a
 * part has run --again-seconds, between two flips, each of which costs
 * far more. */
static int first_waits(const gb_search_t *s)
{
    for (size_t i = 0; i < s->work.n; i++)
        if (!expanded_before(s->work.heap[i]))
            return 1;
    return 0;
}

/* 1 when the part of an input expanded again (`again`: the rest of a
 * suspended expansion, or a retry) begun at `start_ms` has run
 * --again-seconds (none when 0) and an input waits for its first
 * expansion (not in directed mode, whose retries are part of its proof). */
static int again_yields(const gb_search_t *s, int again, uint64_t start_ms)
{
    return again && !s->reach.on && s->o.again_ms && gb_time_ms() - start_ms >= s->o.again_ms &&
           first_waits(s);
}

/* How much a retry's timeouts grow (gb_solver_set_patience): one doubling
 * per round the input has had, but only one in all beside active peers
 * with --again-seconds on (GB_AGAIN_PATIENCE_PEERS): there the time goes
 * to their inputs' first expansions, and a retry's 16-times-longer
 * queries (made for a lone worker's slow query) found nothing in issue
 * 36's profile. */
static unsigned patience(const gb_search_t *s, const gb_item_t *it)
{
    if (s->o.again_ms && !s->reach.on && gb_peers_active(s->peers) &&
        it->retries > GB_AGAIN_PATIENCE_PEERS)
        return GB_AGAIN_PATIENCE_PEERS;
    return it->retries;
}

/* Why an expansion part stops before its last flip. */
typedef enum cut {
    CUT_NONE,   /* it goes on */
    CUT_BETTER, /* an input that covered new blocks waits (better_waits) */
    CUT_SLICE,  /* it ran --slice-seconds (slow_slice) */
    CUT_AGAIN,  /* expanded before, it ran --again-seconds (again_yields) */
} cut_t;

/* Stops an expansion for `why`: the n flips left go to it->pending, and
 * the search puts `it` back on the worklist (with score 0). A slow one
 * (CUT_SLICE, CUT_AGAIN) also loses its hint, novelty and frontier, so it
 * goes behind every input waiting for its first expansion but the longer
 * ones. */
static int suspend(gb_search_t *s, gb_item_t *it, const flip_pos_t *left, size_t n, cut_t why,
                   gb_err_t *e)
{
    it->pending = gb_calloc(n, sizeof *it->pending);
    if (!it->pending)
        return gb_err_set(e, "out of memory");
    for (size_t i = 0; i < n; i++)
        it->pending[i] = (uint32_t)left[i].j;
    it->npending = n;
    it->suspended = 1;
    s->st.suspended++;
    if (why != CUT_BETTER) {
        s->st.sliced += why == CUT_SLICE;
        s->st.yielded += why == CUT_AGAIN;
        it->hint = GB_HINT_NONE;
        it->novelty = it->nfront = 0;
    }
    return 0;
}

/* A trace that made progress (note_progress) pays the (site, direction)
 * whose flip made the input, as a new block would: loops that go one
 * step further each time are not backed off. */
static void credit_maker(gb_search_t *s, const gb_item_t *it)
{
    if (it->n_predicted == 0)
        return; /* a seed, an import, or resumed */
    gb_step_t st = gb_item_step(it, it->n_predicted - 1);
    gb_site_stat_t *ss = gb_sites_get(&s->sites, st.site, st.taken);
    if (ss && ss->unpaid) {
        ss->unpaid = 0;
        ss->paid++;
    }
}

/* Where `it` is stored (0), or -1 when it is neither stored nor resumable. */
static int stored_as(const gb_item_t *it, gb_stored_t *kind, uint32_t *id)
{
    if (it->queue_id < 0 && it->crash_id < 0)
        return -1;
    *kind = it->queue_id >= 0 ? GB_STORED_QUEUE : GB_STORED_CRASH;
    *id = (uint32_t)(it->queue_id >= 0 ? it->queue_id : it->crash_id);
    return 0;
}

/* The journal's three records (corpus/journal.c), each retried while the
 * disk is full. */
enum jrec { J_BEGIN, J_DONE, J_STOP };

static int journal_rec(gb_search_t *s, enum jrec rec, gb_stored_t kind, uint32_t id, gb_err_t *e)
{
    for (;;) {
        int rc = rec == J_BEGIN ? gb_journal_begin(s->journal, kind, id, e)
                 : rec == J_DONE ? gb_journal_append(s->journal, kind, id, e)
                                 : gb_journal_stop(s->journal, e);
        if (rc == 0)
            return 0;
        if (!gb_wait_for_space(s, errno))
            return -1;
    }
}

/* Records that `it` needs no more expanding (a resume skips it). */
static int journal(gb_search_t *s, const gb_item_t *it, gb_err_t *e)
{
    gb_stored_t kind;
    uint32_t id;
    if (stored_as(it, &kind, &id) != 0)
        return 0; /* nothing to record */
    return journal_rec(s, J_DONE, kind, id, e);
}

int gb_expand_start(gb_search_t *s, gb_err_t *e)
{
    gb_expand_state_t *x = &s->exp;
    x->trace_input = gb_search_file(s, ".cur_trace_input");
    x->trace_file = gb_search_file(s, ".cur_trace.gbt");
    return x->trace_input && x->trace_file ? 0 : gb_err_set(e, "out of memory");
}

void gb_expand_free(gb_expand_state_t *x)
{
    gb_free(x->trace_input);
    gb_free(x->trace_file);
    x->trace_input = x->trace_file = NULL;
    gb_hset_free(&x->dirs);
    gb_hset_free(&x->depths);
}

/* ExpandExecution: trace, then flip every entry from the bound on. The
 * bound drops to the first divergence from the predicted path. */
static int expand_claimed(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    gb_err_t te;
    s->st.cur_item = it->queue_id;
    int progress = 0, resumed = it->pending != NULL, again = expanded_before(it);
    gb_trace_t *t = trace_item(s, it, &progress, &te);
    s->st.expanded += !resumed;
    if (!t && s->exp.trace_missing && !s->exp.trace_seen)
        return gb_err_set(e, "%s exits without reaching its input (no trace was written): it "
                             "exits before LLVMFuzzerTestOneInput (look at its main or "
                             "LLVMFuzzerInitialize) or, for a program with its own main, before "
                             "it opens the input file (are @@ and the arguments right?), or it "
                             "is not a glassbox-cc --mode=trace build",
                          s->o.trace_bin);
    if (!t && s->exp.trace_missing)
        gb_notice(s, GB_NOTE_NOBLOCK, "the trace build exited without reaching its input on "
                                      "some inputs; those are not expanded");
    if (!t && s->reach.on)
        gb_reach_hole(&s->reach, "an input's trace could not be read");
    if (!t)
        return journal(s, it, e); /* no usable trace: nothing to redo */
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    if (info.blocks == 0)
        gb_notice(s, GB_NOTE_TRACE, "the trace build recorded no block for an input: it exits "
                                    "before the harness, or is not a --mode=trace build of the "
                                    "same harness as the cov build");
    size_t bound = it->bound, d = divergence(it, t, info.pcs);
    if (d != SIZE_MAX) {
        s->st.divergent += it->retries == 0 && !resumed;
        bound = d < bound ? d : bound;
    }
    if (!resumed && !it->extra) /* an extra input is outside the proof */
        gb_reach_on_trace(s, t, d != SIZE_MAX);
    if (progress)
        credit_maker(s, it);
    s->exp.progress_now = progress;
    /* A suspended expansion goes on with the flips it had left; a retry
     * flips only what the last expansion backed off, and what this one
     * backs off is collected afresh. */
    uint32_t *only = NULL;
    size_t nonly = 0, n, k;
    if (resumed) {
        only = it->pending, nonly = it->npending;
        it->pending = NULL, it->npending = 0;
    } else if (it->retries) {
        only = it->skipped, nonly = it->nskipped;
        it->skipped = NULL;
        it->nskipped = it->skipped_cap = 0;
    } else {
        it->nskipped = 0;
    }
    flip_pos_t *order = flip_order(s, t, bound, info.pcs, only, nonly, &n);
    gb_free(only);
    uint8_t *over = s->reach.on ? gb_reach_over_bound(s, t, info.pcs) : NULL;
    int rc = order && (over || !s->reach.on) ? 0 : gb_err_set(e, "out of memory");
    /* a first expansion also repeats the tokens the run matched: native
     * runs, cheaper than any flip */
    if (rc == 0 && !again && !s->reach.on)
        rc = gb_tokens_repeat(s, it, t, e);
    gb_solver_set_patience(s->solver, patience(s, it)); /* a retry's timeouts grow */
    /* a lent turn (a pause in gb_pulse) is no time spent on this part */
    uint64_t start_ms = gb_time_ms(), paused0 = s->st.paused_ms;
    for (k = 0; k < n && rc == 0 && !gb_search_out_of_time(s); k++) {
        rc = flip_one(s, it, t, order[k].j, over, e);
        gb_pulse(s);
        if (rc != 0 || k + 1 >= n)
            continue;
        uint64_t began = start_ms + (s->st.paused_ms - paused0);
        cut_t why = slow_slice(s, began)                              ? CUT_SLICE
                    : again_yields(s, again, began)                   ? CUT_AGAIN
                    : k + 1 >= GB_EXPAND_SLICE && better_waits(s, it) ? CUT_BETTER
                                                                      : CUT_NONE;
        if (why != CUT_NONE) {
            rc = suspend(s, it, order + k + 1, n - k - 1, why, e);
            k = n;
        }
    }
    s->exp.progress_now = 0;
    gb_solver_set_patience(s->solver, 0);
    gb_free(over);
    gb_free(order);
    free_trace(&s->exp, t);
    /* finished: a resume must not redo it (a retry's first expansion was
     * journaled when it finished) */
    if (rc == 0 && !it->suspended && k >= n && !it->retries)
        rc = journal(s, it, e);
    return rc;
}

/* The journal brackets each expansion of a stored input: begun, then
 * finished or stopped. If the process dies in between (Z3's memory
 * ceiling, the OOM killer, a kill -9), the next --resume finds the begun
 * record open and does not expand that input again (gb_resume_load). */
int gb_expand(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    int mine = gb_peers_claim(s->peers, it->data, it->len, e);
    if (mine <= 0) {
        s->st.claimed_elsewhere += mine == 0;
        return mine;
    }
    gb_stored_t kind;
    uint32_t id;
    if (stored_as(it, &kind, &id) != 0)
        return expand_claimed(s, it, e);
    int was_done = gb_journal_done(s->journal, kind, id);
    if (journal_rec(s, J_BEGIN, kind, id, e) != 0)
        return -1;
    gb_err_t se;
    int rc = expand_claimed(s, it, e);
    /* not finished in this call (suspended, stopped, failed, a retry of a
     * finished one): close the begun record */
    if ((was_done || !gb_journal_done(s->journal, kind, id)) &&
        journal_rec(s, J_STOP, kind, id, rc == 0 ? e : &se) != 0)
        return -1;
    return rc;
}
