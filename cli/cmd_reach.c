/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach: the generational search directed at source lines, with
 * one verdict per target (reached, unreachable within the bound, no CFG
 * path, unknown) on stdout and in OUT/reach.json (docs/reach.md). */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_files.h"

#include "corpus.h"
#include "generational.h"
#include "searching.h"

#define CMD "reach"

static void show_notice(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "glassbox reach: note: %s\n", msg);
}

/* FILE:LINE (split at the last ':'); 0, or -1 when malformed. */
static int parse_target(const char *s, char *file, size_t cap, unsigned *line)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (size_t)(colon - s) >= cap || !colon[1])
        return -1;
    char *end;
    errno = 0;
    unsigned long l = strtoul(colon + 1, &end, 10);
    if (*end || errno || l == 0 || l > UINT32_MAX || colon[1] == '-' || colon[1] == '+')
        return -1;
    memcpy(file, s, (size_t)(colon - s));
    file[colon - s] = '\0';
    *line = (unsigned)l;
    return 0;
}

typedef struct targets {
    gb_reach_target_t *v;
    char (*file)[PATH_MAX];
    char **spec;    /* as the user wrote it, or FILE:LINE (assert) */
    size_t n, nline; /* all targets; the first nline are FILE:LINE ones */
    int asserts;     /* --target asserts was given */
    gb_reach_target_t *av; /* gb_reach_asserts' list, whose names v borrows */
    size_t an;
} targets_t;

static void targets_free(targets_t *t)
{
    for (size_t i = 0; t->spec && i < t->n; i++)
        free(t->spec[i]);
    free(t->spec);
    free(t->v);
    free(t->file);
    gb_reach_targets_free(t->av, t->an);
}

/* Parses every --target; GB_EXIT_OK, or a usage error (printed). */
static gb_exit_t parse_targets(const gb_strlist_t *l, targets_t *t)
{
    if (l->n == 0)
        return gb_cli_error(GB_EXIT_USAGE, CMD, "at least one --target FILE:LINE is required");
    t->v = calloc(l->n, sizeof *t->v);
    t->file = calloc(l->n, sizeof *t->file);
    t->spec = calloc(l->n, sizeof *t->spec);
    if (!t->v || !t->file || !t->spec)
        return gb_cli_error(GB_EXIT_FAIL, CMD, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->v[i], "asserts") == 0) {
            t->asserts = 1;
            continue;
        }
        size_t k = t->n;
        if (parse_target(l->v[i], t->file[k], sizeof t->file[k], &t->v[k].line) != 0)
            return gb_cli_error(GB_EXIT_USAGE, CMD,
                                "bad --target '%s': expected FILE:LINE with a line number >= 1 "
                                "or 'asserts'",
                                l->v[i]);
        t->v[k].file = t->file[k];
        if (!(t->spec[k] = strdup(l->v[i])))
            return gb_cli_error(GB_EXIT_FAIL, CMD, "out of memory");
        t->n++;
    }
    t->nline = t->n;
    return GB_EXIT_OK;
}

/* --target asserts: every failing assert and trap of COV_BIN's CFG joins
 * the targets, named "FILE:LINE (assert)". */
static gb_exit_t add_asserts(const char *bin, targets_t *t)
{
    gb_err_t e;
    if (gb_reach_asserts(bin, &t->av, &t->an, &e) != 0)
        return gb_cli_fail(CMD, e.msg);
    if (t->an == 0)
        return gb_cli_error(GB_EXIT_USAGE, CMD,
                            "--target asserts: %s has no failing assert or trap in its CFG "
                            "(built with glassbox-cc?)",
                            bin);
    gb_reach_target_t *v = realloc(t->v, (t->n + t->an) * sizeof *v);
    char **spec = v ? realloc(t->spec, (t->n + t->an) * sizeof *spec) : NULL;
    if (v)
        t->v = v;
    if (spec)
        t->spec = spec;
    if (!v || !spec)
        return gb_cli_error(GB_EXIT_FAIL, CMD, "out of memory");
    for (size_t i = 0; i < t->an; i++) {
        char buf[PATH_MAX + 32];
        snprintf(buf, sizeof buf, "%s:%u (assert)", t->av[i].file, t->av[i].line);
        t->v[t->n] = t->av[i];
        if (!(t->spec[t->n] = strdup(buf)))
            return gb_cli_error(GB_EXIT_FAIL, CMD, "out of memory");
        t->n++;
    }
    return GB_EXIT_OK;
}

/* Looks every target up in COV_BIN's CFG: GB_EXIT_OK when each has
 * blocks; otherwise one line per target without (exit 2), or a failure. */
static gb_exit_t lookup_targets(const char *bin, const targets_t *t)
{
    gb_exit_t rc = GB_EXIT_OK;
    for (size_t i = 0; i < t->nline; i++) {
        gb_reach_where_t w;
        gb_err_t e;
        if (gb_reach_lookup(bin, &t->v[i], &w, &e) != 0)
            return gb_cli_fail(CMD, e.msg);
        if (!w.has_cfg)
            return gb_cli_error(GB_EXIT_USAGE, CMD,
                                "%s carries no static CFG: build it with glassbox-cc -g", bin);
        if (w.line_modules == 0)
            return gb_cli_error(GB_EXIT_USAGE, CMD,
                                "%s has no source lines in its CFG: build it with glassbox-cc "
                                "-g (and a glassbox-cc that writes CFG version 3)",
                                bin);
        if (w.blocks)
            continue;
        rc = GB_EXIT_USAGE;
        if (w.files == 0)
            printf("%s: no-block: no source file of %s matches '%s'\n", t->spec[i], bin,
                   t->v[i].file);
        else
            printf("%s: no-block: line %u has no code in %s (the compiler removed it, or it "
                   "holds none); nearest lines with code: %u and %u (0 = none)\n",
                   t->spec[i], t->v[i].line, bin, w.before, w.after);
    }
    return rc;
}

static const char *verdict_name(gb_reach_verdict_t v)
{
    switch (v) {
    case GB_REACH_REACHED:
        return "reached";
    case GB_REACH_UNREACHABLE:
        return "unreachable-within-bound";
    case GB_REACH_NO_CFG_PATH:
        return "unreachable-no-cfg-path";
    default:
        return "unknown";
    }
}

/* The claim a complete proof makes, in one sentence. */
static void claim_text(char *buf, size_t n, const gb_reach_proof_t *p)
{
    snprintf(buf, n,
             "no input of at most %llu bytes whose run evaluates each input-dependent branch "
             "at most K=%u times reaches it%s",
             (unsigned long long)p->max_len, p->unroll,
             p->bound_cut ? "" : " (the bound cut no path, so this holds for longer runs too)");
}

/* OUT/reach/target-N: the input that reached target i. */
static int save_input(const char *out, size_t i, const gb_reach_result_t *r, char *path,
                      size_t cap, gb_err_t *e)
{
    char name[32];
    snprintf(name, sizeof name, "target-%zu", i + 1);
    snprintf(path, cap, "%s/reach/%s", out, name);
    int dfd = gb_dir_open(out, "reach", 1, e);
    if (dfd < 0)
        return -1;
    int rc = gb_file_write_at(dfd, name, -1, r->input ? (const void *)r->input : "", r->input_len,
                              e);
    close(dfd);
    return rc;
}

static json_object *jstr(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

static json_object *proof_json(const gb_reach_proof_t *p)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "complete", json_object_new_boolean(p->complete));
    json_object_object_add(o, "why_not", jstr(p->why_not));
    json_object_object_add(o, "unroll", json_object_new_int64(p->unroll));
    json_object_object_add(o, "max_input_len", json_object_new_int64((int64_t)p->max_len));
    json_object_object_add(o, "bound_cut", json_object_new_boolean(p->bound_cut));
    json_object_object_add(o, "paths", json_object_new_int64((int64_t)p->paths));
    json_object_object_add(o, "refuted", json_object_new_int64((int64_t)p->refuted));
    json_object_object_add(o, "cfg_pruned", json_object_new_int64((int64_t)p->cfg_pruned));
    json_object_object_add(o, "bound_pruned", json_object_new_int64((int64_t)p->bound_pruned));
    json_object_object_add(o, "children", json_object_new_int64((int64_t)p->children));
    json_object_object_add(o, "holes", json_object_new_int64((int64_t)p->holes));
    json_object_object_add(o, "pending", json_object_new_int64((int64_t)p->pending));
    return o;
}

/* One target: its line on stdout and its object in reach.json. */
static json_object *report_one(const char *out, const targets_t *t, size_t i,
                               const gb_reach_result_t *r, const gb_reach_proof_t *p)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "target", jstr(t->spec[i]));
    json_object_object_add(o, "file", jstr(t->v[i].file));
    json_object_object_add(o, "line", json_object_new_int64(t->v[i].line));
    if (t->v[i].block)
        json_object_object_add(o, "kind", jstr("assert"));
    json_object_object_add(o, "blocks", json_object_new_int64((int64_t)r->nblocks));
    json_object_object_add(o, "verdict", jstr(verdict_name(r->verdict)));
    if (r->shared_id)
        json_object_object_add(o, "shared_block_id", json_object_new_boolean(1));
    char path[PATH_MAX + 32], claim[512];
    gb_err_t e;
    switch (r->verdict) {
    case GB_REACH_REACHED:
        if (save_input(out, i, r, path, sizeof path, &e) != 0) {
            fprintf(stderr, "glassbox reach: %s\n", e.msg);
            path[0] = '\0';
        }
        json_object_object_add(o, "input", jstr(path));
        json_object_object_add(o, "crashed", json_object_new_boolean(r->crashed));
        json_object_object_add(o, "time_ms", json_object_new_int64((int64_t)r->ms));
        json_object_object_add(o, "execs", json_object_new_int64((int64_t)r->execs));
        printf("%s: reached after %.1f s and %llu runs%s: %s\n", t->spec[i], r->ms / 1000.0,
               (unsigned long long)r->execs, r->crashed ? " (the input crashes)" : "", path);
        break;
    case GB_REACH_UNREACHABLE:
        claim_text(claim, sizeof claim, p);
        json_object_object_add(o, "claim", jstr(claim));
        printf("%s: unreachable-within-bound: %s (%llu paths explored, %llu flips refuted, %llu "
               "cut by the CFG, %llu past the bound)\n",
               t->spec[i], claim, (unsigned long long)p->paths, (unsigned long long)p->refuted,
               (unsigned long long)p->cfg_pruned, (unsigned long long)p->bound_pruned);
        break;
    case GB_REACH_NO_CFG_PATH:
        snprintf(claim, sizeof claim, "%s",
                 r->folded ? "no run reaches its blocks: the only branches into them test "
                             "constants (folded by glassbox-cc, no bound needed)"
                           : "no path of the static CFG leads from the entry points to its "
                             "blocks (no bound needed)");
        json_object_object_add(o, "claim", jstr(claim));
        json_object_object_add(o, "folded", json_object_new_boolean(r->folded));
        printf("%s: unreachable-no-cfg-path: %s\n", t->spec[i], claim);
        break;
    default:
        json_object_object_add(o, "why_not", jstr(p->why_not));
        json_object_object_add(o, "distance", r->dist == UINT32_MAX
                                                  ? NULL
                                                  : json_object_new_int64((int64_t)r->dist));
        printf("%s: unknown (K=%u): %s; frontier: %zu inputs waiting, the nearest run came ",
               t->spec[i], p->unroll, p->why_not ? p->why_not : "no proof", p->pending);
        if (r->dist == UINT32_MAX)
            printf("nowhere near it in the CFG\n");
        else
            printf("%u CFG steps from it\n", r->dist);
        break;
    }
    return o;
}

/* Every target's line, then OUT/reach.json. */
static int report(gb_search_t *s, const char *out, const targets_t *t, uint64_t ms,
                  gb_err_t *e)
{
    gb_reach_proof_t p;
    gb_search_get_proof(s, &p);
    gb_search_stats_t st;
    gb_search_get_stats(s, &st);
    json_object *doc = json_object_new_object(), *arr = json_object_new_array();
    for (size_t i = 0; i < t->n; i++) {
        gb_reach_result_t r;
        gb_search_get_reach(s, i, &r);
        json_object_array_add(arr, report_one(out, t, i, &r, &p));
    }
    json_object_object_add(doc, "targets", arr);
    json_object_object_add(doc, "proof", proof_json(&p));
    json_object_object_add(doc, "time_ms", json_object_new_int64((int64_t)ms));
    json_object_object_add(doc, "execs", json_object_new_int64((int64_t)st.execs));
    json_object_object_add(doc, "traces", json_object_new_int64((int64_t)st.traces));
    const char *js = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                             JSON_C_TO_STRING_NOSLASHESCAPE);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/reach.json", out);
    int rc = js ? gb_write_atomic(path, out, js, strlen(js), e) : gb_err_set(e, "out of memory");
    json_object_put(doc);
    return rc;
}

/* The command line's values; parse_reach starts each at its table default. */
typedef struct reach_cli {
    const char *in, *out;
    unsigned long long t, v, st, unroll, mem;
    int quiet;
    gb_strlist_t tl; /* every --target; zeroed before the parse */
    gb_args_t a;     /* rest: TRACE_BIN COV_BIN ARGS... */
} reach_cli_t;

static gb_parsed_t parse_reach(int argc, char **argv, reach_cli_t *r)
{
    /* clang-format off */
    const gb_opt_t opts[] = {
        GB_OPTION_LIST(0, "target", "FILE:LINE", &r->tl, 0,
                       "a source line to reach (repeatable); FILE matches the debug info's "
                       "path by its tail, a base name is enough; 'asserts': every failing "
                       "assert() and __builtin_trap() of COV_BIN, each a target"),
        GB_OPTION_STR('i', "input", "DIR", NULL, NULL, &r->in, "seed directory (required)"),
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &r->out,
                      "output directory (required): reach.json, reach/target-N, glassbox/"),
        GB_OPTION_UINT('V', "time", "SECONDS", NULL, 0, &r->v,
                       "stop after this long, 0 = when every target is decided"),
        GB_OPTION_UINT(0, "unroll", "K", NULL, GB_REACH_UNROLL, &r->unroll,
                       "loop bound: paths that evaluate a branch more than K times are not "
                       "explored (1 to " GB_OPT_XSTR(GB_REACH_UNROLL_MAX) ")"),
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &r->t, "time limit per run"),
        GB_OPTION_UINT('m', "memory", "MB", NULL, GB_MEM_LIMIT_MB, &r->mem,
                       "address-space limit per run, 0 = none"),
        GB_OPTION_UINT(0, "solver-timeout", "MS", "GLASSBOX_SOLVER_TIMEOUT", GB_SOLVER_TIMEOUT_MS,
                       &r->st, "Z3 time limit per query (a query it cannot decide leaves a "
                       "proof incomplete)"),
        GB_OPTION_FLAG('q', "quiet", &r->quiet, "no notes on stderr"),
    };
    /* clang-format on */
    const gb_cmd_t cmd = {
        CMD, "--target FILE:LINE|asserts [--target ...] -i SEEDS -o OUT [options] -- TRACE_BIN COV_BIN "
             "[ARGS...]",
        "Directed whitebox search: the generational search of 'glassbox fuzz' ordered by\n"
        "static CFG distance to the targets, skipping flips that cannot reach one. Build\n"
        "both binaries with glassbox-cc -g (the CFG then carries source lines). One line\n"
        "per target on stdout: 'reached' (the input in OUT/reach/target-N),\n"
        "'unreachable-within-bound' (every path within the loop bound K was explored or\n"
        "refuted exactly; the line says what was proved), 'unreachable-no-cfg-path', or\n"
        "'unknown' with what is left. All of it also in OUT/reach.json. A target line\n"
        "with no code in the build is reported as 'no-block' and the exit status is 2.\n"
        "See docs/reach.md.",
        opts, GB_N(opts), NULL};
    return gb_opts_args(&cmd, argc, argv, &r->a);
}

/* The values' own checks, then the targets parsed into `tg` and looked
 * up in COV_BIN's CFG: GB_EXIT_OK, or the error (printed). */
static gb_exit_t check_reach(const reach_cli_t *r, targets_t *tg)
{
    gb_exit_t rc = parse_targets(&r->tl, tg);
    if (rc != GB_EXIT_OK)
        return rc;
    if (!r->in || !r->out)
        return gb_cli_error(GB_EXIT_USAGE, CMD, "-i SEEDS and -o OUT are required (see --help)");
    if (r->a.npos || r->a.nrest < 2)
        return gb_cli_error(GB_EXIT_USAGE, CMD,
                            "expected '-- TRACE_BIN COV_BIN [ARGS...]' after the options");
    if (r->unroll < 1 || r->unroll > GB_REACH_UNROLL_MAX)
        return gb_cli_error(GB_EXIT_USAGE, CMD, "--unroll must be between 1 and %u",
                            GB_REACH_UNROLL_MAX);
    if (r->t == 0 || r->t > 3600000 || r->st == 0 || r->st > 3600000)
        return gb_cli_error(GB_EXIT_USAGE, CMD, "timeouts must be between 1 ms and 1 hour");
    rc = lookup_targets(r->a.rest[1], tg);
    if (rc == GB_EXIT_OK && tg->asserts)
        rc = add_asserts(r->a.rest[1], tg);
    return rc;
}

/* The seeds of -i (at least one is needed) and OUT made; on an error
 * (printed) the caller still frees what *seeds holds. */
static gb_exit_t load_seeds(const reach_cli_t *r, gb_seed_t **seeds, size_t *nseeds)
{
    gb_err_t e;
    if (gb_seeds_load(r->in, gb_cli_seed_skipped, CMD, seeds, nseeds, &e) != 0)
        return gb_cli_fail(CMD, e.msg);
    if (*nseeds == 0)
        return gb_cli_error(GB_EXIT_USAGE, CMD, "%s holds no usable seed", r->in);
    if (gb_mkdirs(r->out, &e) != 0)
        return gb_cli_fail(CMD, e.msg);
    return GB_EXIT_OK;
}

/* The directed search's options: always optimistic, its campaign in
 * OUT/glassbox. */
static gb_search_opts_t search_opts(const reach_cli_t *r, const targets_t *tg, int argc,
                                    char **argv)
{
    const gb_args_t *a = &r->a;
    return (gb_search_opts_t){
        .trace_bin = a->rest[0], .cov_bin = a->rest[1], .out = r->out, .name = "glassbox",
        .target_args = a->rest + 2, .n_target_args = (size_t)a->nrest - 2,
        .timeout_ms = (unsigned)r->t, .solver_timeout_ms = (unsigned)r->st, .max_seconds = r->v,
        .optimistic = 1, .mem_limit_mb = (unsigned)r->mem,
        .on_notice = r->quiet ? NULL : show_notice, .command_line = gb_cli_join(argc, argv),
        .targets = tg->v, .ntargets = tg->n, .unroll = (unsigned)r->unroll,
    };
}

/* The directed search made, seeded (the seeds are freed either way) and
 * run, then every target's verdict reported. */
static gb_exit_t run_reach(const gb_search_opts_t *so, const targets_t *tg, gb_seed_t *seeds,
                           size_t nseeds)
{
    gb_err_t e;
    gb_search_t *s;
    if (gb_search_new(so, &s, &e) != 0) {
        gb_seeds_free(seeds, nseeds);
        return gb_cli_fail(CMD, e.msg);
    }
    uint64_t t0 = gb_time_ms();
    gb_exit_t rc = GB_EXIT_OK;
    if (gb_cli_search(s, seeds, nseeds, &e) != 0 ||
        report(s, so->out, tg, gb_time_ms() - t0, &e) != 0)
        rc = gb_cli_fail(CMD, e.msg);
    gb_search_free(s);
    return rc;
}

gb_exit_t gb_cmd_reach(int argc, char **argv)
{
    reach_cli_t r;
    memset(&r, 0, sizeof r);
    gb_parsed_t parsed = parse_reach(argc, argv, &r);
    if (parsed != GB_PARSED_OK) {
        gb_strlist_free(&r.tl);
        return gb_opts_exit(parsed);
    }
    targets_t tg = {0};
    gb_seed_t *seeds = NULL;
    size_t nseeds = 0;
    gb_exit_t rc = check_reach(&r, &tg);
    if (rc == GB_EXIT_OK)
        rc = load_seeds(&r, &seeds, &nseeds);
    if (rc == GB_EXIT_OK) {
        gb_search_opts_t so = search_opts(&r, &tg, argc, argv);
        rc = run_reach(&so, &tg, seeds, nseeds);
    } else {
        gb_seeds_free(seeds, nseeds);
    }
    targets_free(&tg);
    gb_strlist_free(&r.tl);
    return rc;
}
