/* SPDX-License-Identifier: Apache-2.0 */
/* The triage report's files (docs/triage.md, "Report layout"): per bucket
 * input, input.min, crash.json, report.txt and repro.sh, and
 * summary.json. All JSON goes through json-c; every file is staged in
 * REPORT/.tmp and renamed into place, so a reader (or a triage killed
 * half-way) never sees a partial one. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"
#include "gb_version.h"
#include "triage_int.h"

/* repro.sh's time limit beyond the triage's own for a run that is not a
 * timeout: a sanitizer symbolizing a deep stack with symbolize=1 takes a
 * few seconds; a minute is room enough and still ends a stuck run. */
#define GB_REPRO_EXTRA_S 60

/* The state as a JSON array of frame names. */
static json_object *state_json(const char *state)
{
    json_object *a = json_object_new_array();
    const char *p = state;
    while (*p) {
        size_t n = strcspn(p, "\n");
        char fn[600];
        snprintf(fn, sizeof fn, "%.*s", (int)n, p);
        json_object_array_add(a, gb_tj_jstr(fn));
        p += n;
        if (*p == '\n')
            p++;
    }
    return a;
}

/* Every string goes through gb_tj_add_str: valid UTF-8, and the exact
 * bytes in k_hex beside it when they were not. */
static void add_str(json_object *o, const char *k, const char *v)
{
    gb_tj_add_str(o, k, v);
}

static void add_time(json_object *o, const char *k, uint64_t ms)
{
    char t[32];
    gb_tj_iso_time(ms, t);
    add_str(o, k, t);
}

static const char *signal_name(int sig)
{
    const char *a = sig > 0 ? sigabbrev_np(sig) : NULL;
    static __thread char buf[24];
    snprintf(buf, sizeof buf, "SIG%s", a ? a : "?");
    return buf;
}

/* ---- crash.json ------------------------------------------------------------------ */

/* argv as text; the binary's exact bytes are binary.path_hex, and an
 * argument that is not UTF-8 is lossy here (docs/triage.md). */
static json_object *argv_json(const gb_report_ctx_t *c)
{
    json_object *a = json_object_new_array();
    json_object_array_add(a, gb_tj_jstr(c->bin));
    for (size_t i = 0; i < c->nargs; i++)
        json_object_array_add(a, gb_tj_jstr(c->args[i]));
    if (c->nargs == 0)
        json_object_array_add(a, json_object_new_string("@@"));
    return a;
}

static json_object *options_json(const gb_report_ctx_t *c)
{
    json_object *o = json_object_new_object();
    for (int i = 0; i < 2; i++) {
        const char *kv = c->info ? c->info->sanitizer_env[i] : NULL;
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (!eq)
            continue;
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
        add_str(o, key, eq + 1);
    }
    return o;
}

static json_object *engine_json(void)
{
    json_object *o = json_object_new_object();
    add_str(o, "name", "glassbox");
    add_str(o, "version", GB_VERSION_FULL);
    return o;
}

static json_object *binary_json(const gb_report_ctx_t *c)
{
    json_object *o = json_object_new_object();
    add_str(o, "path", c->bin);
    add_str(o, "build_id", c->build_id);
    if (c->info) {
        json_object_object_add(o, "asan", json_object_new_boolean(c->info->asan));
        json_object_object_add(o, "ubsan", json_object_new_boolean(c->info->ubsan));
        json_object_object_add(o, "forkserver", json_object_new_boolean(c->info->forkserver));
    }
    return o;
}

static json_object *inputs_json(const gb_bucket_t *b)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < b->ninputs; i++) {
        const gb_bucket_input_t *x = &b->inputs[i];
        json_object *o = json_object_new_object();
        add_str(o, "path", x->path);
        add_str(o, "sha1", x->sha1);
        json_object_object_add(o, "size", json_object_new_int64((int64_t)x->size));
        json_object_object_add(o, "flaky", json_object_new_boolean(x->flaky));
        add_str(o, "engine", x->engine);
        add_str(o, "detail", x->detail);
        add_time(o, "first_seen", x->seen_ms);
        json_object_array_add(a, o);
    }
    return a;
}

/* {"version","state_frames"}: the bucket rule (docs/triage.md). */
static json_object *rule_json(unsigned state_frames)
{
    json_object *r = json_object_new_object();
    json_object_object_add(r, "version", json_object_new_int(GB_BUCKET_RULE));
    json_object_object_add(r, "state_frames", json_object_new_int((int)state_frames));
    return r;
}

/* The inputs' distinct details (access sizes, addresses), in the order
 * first seen: what the bucket's key leaves out. */
static json_object *details_json(const gb_bucket_t *b)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < b->ninputs; i++) {
        size_t j = 0;
        while (j < i && strcmp(b->inputs[j].detail, b->inputs[i].detail) != 0)
            j++;
        if (j == i && b->inputs[i].detail[0])
            json_object_array_add(a, gb_tj_jstr(b->inputs[i].detail));
    }
    return a;
}

static void add_run(json_object *o, const gb_run_result_t *r)
{
    add_str(o, "status", gb_tj_status_name(r->status));
    if (r->status == GB_RUN_CRASH || r->status == GB_RUN_TIMEOUT) {
        json_object_object_add(o, "signal", json_object_new_int(r->signal));
        add_str(o, "signal_name", signal_name(r->signal));
        json_object_object_add(o, "exit_code", NULL);
    } else {
        json_object_object_add(o, "signal", NULL);
        json_object_object_add(o, "exit_code", json_object_new_int(r->exit_code));
    }
}

static json_object *crash_json(const gb_report_ctx_t *c, const gb_bucket_t *b)
{
    json_object *o = json_object_new_object();
    size_t nflaky = 0;
    for (size_t i = 0; i < b->ninputs; i++)
        nflaky += (size_t)b->inputs[i].flaky;
    add_str(o, "id", b->id);
    add_str(o, "type", b->type);
    json_object_object_add(o, "state", state_json(b->state));
    json_object_object_add(o, "bucket_rule", rule_json(b->state_frames));
    add_str(o, "detail", b->detail);
    json_object_object_add(o, "details", details_json(b));
    json_object_object_add(o, "frames", gb_tj_frames_json(b->frames, b->nframes, b->state_frames));
    add_run(o, &b->run);
    json_object_object_add(o, "binary", binary_json(c));
    json_object_object_add(o, "argv", argv_json(c));
    json_object_object_add(o, "timeout_ms", json_object_new_int64(c->timeout_ms));
    json_object_object_add(o, "sanitizer_options", options_json(c));
    json_object_object_add(o, "engine", engine_json());
    add_time(o, "first_seen", b->first_ms);
    add_time(o, "last_seen", b->last_ms ? b->last_ms : b->first_ms);
    json_object_object_add(o, "count", json_object_new_int64((int64_t)b->ninputs));
    json_object_object_add(o, "flaky", json_object_new_boolean(b->flaky));
    json_object_object_add(o, "flaky_inputs", json_object_new_int64((int64_t)nflaky));
    json_object *rep = json_object_new_object();
    add_str(rep, "file", "input");
    json_object_object_add(rep, "size", json_object_new_int64((int64_t)b->repro_size));
    add_str(rep, "from", b->repro_path);
    json_object_object_add(rep, "flaky", json_object_new_boolean(b->repro_flaky));
    add_str(rep, "minimised", "input.min");
    json_object_object_add(rep, "minimised_size", json_object_new_int64((int64_t)b->min_size));
    json_object_object_add(o, "reproducer", rep);
    json_object_object_add(o, "inputs", inputs_json(b));
    add_str(o, "sanitizer_report", b->report);
    return o;
}

/* ---- report.txt and repro.sh ---------------------------------------------------------- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf_t;

static void put(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    for (int tries = 0; tries < 2 && !b->oom; tries++) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        if (gb_grow(&b->s, &b->cap, b->len + (size_t)n + 1, 1, 4096) != 0)
            b->oom = 1;
    }
}

/* Appends s single-quoted for sh (a ' becomes '\''). */
static void put_quoted(sbuf_t *b, const char *s)
{
    put(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            put(b, "'\\''");
        else
            put(b, "%c", *p);
    }
    put(b, "'");
}

static void frame_line(sbuf_t *t, size_t i, const gb_frame_t *f, int in_state)
{
    put(t, "  #%-3zu %s%s", i, f->func[0] ? f->func : "??", in_state ? "  *" : "");
    if (f->file[0])
        put(t, "  %s:%u", f->file, f->line);
    if (f->module[0])
        put(t, "  (%s+0x%llx)", f->module, (unsigned long long)f->offset);
    put(t, "\n");
}

/* Writes `len` bytes of t to `name` in the bucket's directory, staged in
 * REPORT/.tmp: never through a symlink a peer planted there. */
static int put_file(const gb_report_ctx_t *c, int bfd, const char *name, const sbuf_t *t,
                    gb_err_t *e)
{
    if (t->oom)
        return gb_err_set(e, "out of memory writing %s", name);
    gb_err_t sub;
    if (gb_file_write_at(bfd, name, c->tmpfd, t->s ? t->s : "", t->len, &sub) != 0)
        return gb_err_set(e, "%s: %s", name, sub.msg);
    return 0;
}

static int write_text(const gb_report_ctx_t *c, const gb_bucket_t *b, int bfd, gb_err_t *e)
{
    sbuf_t t = {0};
    char line[700], first[32], last[32];
    gb_crash_state_line(b->state, line, sizeof line);
    gb_tj_iso_time(b->first_ms, first);
    gb_tj_iso_time(b->last_ms ? b->last_ms : b->first_ms, last);
    put(&t, "Bucket     %s\nType       %s\nDetail     %s\nState      %s\n", b->id, b->type,
        b->detail[0] ? b->detail : b->type, b->state[0] ? line : "(no frames)");
    put(&t, "Inputs     %zu%s\nSeen       %s to %s\n", b->ninputs,
        b->flaky ? " (flaky: none crashed this way in every run)" : "", first, last);
    put(&t, "Binary     %s (build id %s)\nEnded      ", c->bin,
        c->build_id[0] ? c->build_id : "none");
    if (b->run.status == GB_RUN_OK)
        put(&t, "exit status %d\n", b->run.exit_code);
    else
        put(&t, "%s (%s)\n", gb_tj_status_name(b->run.status), signal_name(b->run.signal));
    put(&t, "Reproducer input (%zu bytes, from %s), input.min (%zu bytes): sh repro.sh\n",
        b->repro_size, b->repro_path ? b->repro_path : "?", b->min_size);
    put(&t, "Engine     glassbox %s\n\nStack (* = a frame of the crash state)\n", GB_VERSION_FULL);
    size_t idx[GB_CRASH_STATE_FRAMES_MAX];
    size_t k = gb_crash_state_frames(b->frames, b->nframes, b->state_frames, idx), next = 0;
    for (size_t i = 0; i < b->nframes; i++) {
        int in_state = next < k && idx[next] == i;
        next += (size_t)in_state;
        frame_line(&t, i, &b->frames[i], in_state);
    }
    if (b->nframes == 0)
        put(&t, "  (none: the run left no stack; docs/triage.md, Limitations)\n");
    put(&t, "\nSanitizer report (unsymbolized; the stack above is)\n%s\n",
        b->report ? b->report : "(none)\n");
    int rc = put_file(c, bfd, "report.txt", &t, e);
    gb_free(t.s);
    return rc;
}

/* The llvm-symbolizer a repro.sh names, so that its report is symbolized
 * in a clean shell too; NULL when none is installed where we look. */
static const char *symbolizer_path(void)
{
    static const char *const cands[] = {"/usr/bin/llvm-symbolizer", "/usr/bin/llvm-symbolizer-14",
                                        "/usr/lib/llvm-14/bin/llvm-symbolizer"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return NULL;
}

/* 1 when the runtime's symbolizer cannot be asked about `bin`: its
 * request line quotes the module in '"' and ends at a newline, and
 * llvm-symbolizer given such a name never answers, so the report (and
 * repro.sh) would hang. */
static int unsymbolizable(const char *bin)
{
    return strpbrk(bin, "\"\n\r") != NULL;
}

/* NAME='options with symbolize=1' in the script (symbolize=0 kept when
 * the binary's name cannot be symbolized). */
static void put_options(sbuf_t *t, const gb_report_ctx_t *c)
{
    int sym_ok = !unsymbolizable(c->bin);
    for (int i = 0; i < 2; i++) {
        const char *kv = c->info ? c->info->sanitizer_env[i] : NULL;
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (!eq)
            continue;
        char val[1024];
        snprintf(val, sizeof val, "%s", eq + 1);
        char *sym = strstr(val, "symbolize=0");
        if (sym && sym_ok)
            sym[10] = '1';
        put(t, "%.*s=", (int)(eq - kv), kv);
        put_quoted(t, val);
        put(t, "\nexport %.*s\n", (int)(eq - kv), kv);
    }
    const char *s = symbolizer_path();
    if (s && sym_ok) {
        put(t, "ASAN_SYMBOLIZER_PATH=");
        put_quoted(t, s);
        put(t, "\nUBSAN_SYMBOLIZER_PATH=$ASAN_SYMBOLIZER_PATH\n"
               "export ASAN_SYMBOLIZER_PATH UBSAN_SYMBOLIZER_PATH\n");
    }
}

/* repro.sh's time limit in seconds: a timeout bucket's run is killed
 * just past the triage's limit (as the triage saw it); any other run
 * gets room for the sanitizer to symbolize its report, but never hangs
 * the shell that runs it. */
static unsigned repro_limit_s(const gb_report_ctx_t *c, const gb_bucket_t *b)
{
    unsigned t = (c->timeout_ms + 999) / 1000;
    return b->run.status == GB_RUN_TIMEOUT ? t + 1 : t + GB_REPRO_EXTRA_S;
}

/* The target's command line with "$input" where @@ is (the input alone
 * without arguments), as run by the triage, under `timeout`. Every word
 * of ours is single-quoted (put_quoted), so no name can end a quote. */
static void put_command(sbuf_t *t, const gb_report_ctx_t *c, const gb_bucket_t *b)
{
    put(t, "timeout -s KILL %u ", repro_limit_s(c, b));
    put_quoted(t, c->bin);
    for (size_t i = 0; i < c->nargs; i++) {
        const char *a = c->args[i], *at = strstr(a, "@@");
        put(t, " ");
        if (!at) {
            put_quoted(t, a);
            continue;
        }
        char pre[PATH_MAX];
        snprintf(pre, sizeof pre, "%.*s", (int)(at - a), a);
        if (pre[0])
            put_quoted(t, pre);
        put(t, "\"$input\"");
        if (at[2])
            put_quoted(t, at + 2);
    }
    if (c->nargs == 0)
        put(t, " \"$input\"");
    put(t, " <\"$input\"\n");
}

/* A comment line's text: control bytes would end the comment. */
static void put_comment(sbuf_t *t, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        put(t, *p < 0x20 || *p == 0x7f ? "?" : "%c", *p);
}

/* chmod 0755 of `name` in bfd without following a symlink: the file is
 * opened as gb_file_open_at does (regular only) and fchmod'ed. */
static int make_executable(int bfd, const char *name, gb_err_t *e)
{
    int fd = gb_file_open_at(bfd, name, GB_OPEN_APPEND, e);
    if (fd < 0)
        return -1;
    int rc = fchmod(fd, 0755) == 0 ? 0 : gb_err_sys(e, "chmod %s", name);
    close(fd);
    return rc;
}

static int write_repro(const gb_report_ctx_t *c, const gb_bucket_t *b, int bfd, gb_err_t *e)
{
    sbuf_t t = {0};
    char line[700], path[PATH_MAX + 32];
    gb_crash_state_line(b->state, line, sizeof line);
    put(&t, "#!/bin/sh\n# glassbox triage, bucket %s: ", b->id);
    put_comment(&t, b->type);
    put(&t, "\n# state: ");
    put_comment(&t, line);
    put(&t,
        "\n# Usage: sh repro.sh [INPUT]   (INPUT defaults to input.min beside this script)\n"
        "# Exit status: 0 if the target did not crash; else its status (128 + the\n"
        "# signal: 134 = SIGABRT from a sanitizer report, 137 = killed at the\n"
        "# time limit of %u s), so a non-zero exit means the crash reproduced.\n"
        "PATH=/usr/local/bin:/usr/bin:/bin\nexport PATH\n",
        repro_limit_s(c, b));
    snprintf(path, sizeof path, "%s/%s/input.min", c->dir, b->id);
    put(&t, "input=${1:-");
    put_quoted(&t, path);
    put(&t, "}\nexpected=");
    put_quoted(&t, b->type);
    put(&t, "\n");
    put_options(&t, c);
    put_command(&t, c, b);
    put(&t, "status=$?\nif [ \"$status\" -ge 128 ]; then\n"
            "  echo \"repro.sh: crashed (status $status), expected: $expected\" >&2\n"
            "  exit \"$status\"\nfi\n"
            "echo \"repro.sh: no crash (exit status $status)\" >&2\nexit 0\n");
    int rc = put_file(c, bfd, "repro.sh", &t, e);
    gb_free(t.s);
    return rc == 0 ? make_executable(bfd, "repro.sh", e) : rc;
}

static int write_input(const gb_report_ctx_t *c, int bfd, const char *name, const uint8_t *data,
                       size_t len, gb_err_t *e)
{
    gb_err_t sub;
    if (gb_file_write_at(bfd, name, c->tmpfd, data, len, &sub) != 0)
        return gb_err_set(e, "%s: %s", name, sub.msg);
    return 0;
}

static int write_bucket_files(const gb_report_ctx_t *c, const gb_bucket_t *b, int bfd,
                              const uint8_t *input, size_t len, const uint8_t *min, size_t min_len,
                              gb_err_t *e)
{
    if (input && (write_input(c, bfd, "input", input, len, e) != 0 ||
                  write_input(c, bfd, "input.min", min, min_len, e) != 0))
        return -1;
    json_object *doc = crash_json(c, b);
    int rc = gb_tj_write_json_at(bfd, "crash.json", c->tmpfd, doc, e);
    json_object_put(doc);
    if (rc == 0)
        rc = write_text(c, b, bfd, e);
    if (rc == 0)
        rc = write_repro(c, b, bfd, e);
    return rc;
}

int gb_report_bucket(const gb_report_ctx_t *c, const gb_bucket_t *b, const uint8_t *input,
                     size_t len, const uint8_t *min, size_t min_len, gb_err_t *e)
{
    /* The bucket's directory by descriptor, never through a symlink: a
     * peer of the sync dir may have planted one to aim our files. */
    gb_err_t sub;
    int bfd = gb_dir_openat(c->dirfd, b->id, 1, &sub);
    if (bfd < 0)
        return gb_err_set(e, "bucket %s not written: %s", b->id, sub.msg);
    int rc = write_bucket_files(c, b, bfd, input, len, min, min_len, &sub);
    close(bfd);
    return rc == 0 ? 0 : gb_err_set(e, "bucket %s: %s", b->id, sub.msg);
}

/* ---- loading an earlier run's buckets ---------------------------------------------------- */

static int load_inputs(gb_bucket_t *b, json_object *a)
{
    size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        if (gb_grow(&b->inputs, &b->cap, b->ninputs + 1, sizeof *b->inputs, 8) != 0)
            return -1;
        gb_bucket_input_t *x = &b->inputs[b->ninputs];
        memset(x, 0, sizeof *x);
        if (!(x->path = gb_tj_raw_str(o, "path", "")))
            return -1;
        snprintf(x->sha1, sizeof x->sha1, "%s", gb_tj_str(o, "sha1", ""));
        int64_t size = gb_tj_int(o, "size", 0);
        x->size = size > 0 ? (size_t)size : 0;
        x->flaky = gb_tj_bool(o, "flaky");
        snprintf(x->engine, sizeof x->engine, "%s", gb_tj_str(o, "engine", "plain"));
        snprintf(x->detail, sizeof x->detail, "%s", gb_tj_str(o, "detail", ""));
        x->seen_ms = gb_tj_parse_iso_time(gb_tj_str(o, "first_seen", ""));
        b->ninputs++;
    }
    return 0;
}

/* The state back from its array form. */
static void load_state(json_object *a, char *state, size_t cap)
{
    size_t at = 0, n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    state[0] = '\0';
    for (size_t i = 0; i < n && at < cap; i++) {
        int w = snprintf(state + at, cap - at, "%s%s", i ? "\n" : "",
                         json_object_get_string(json_object_array_get_idx(a, i)));
        if (w < 0 || (size_t)w >= cap - at)
            break;
        at += (size_t)w;
    }
}

/* 0 loaded, 1 not a bucket of this triage's (the id does not hash from
 * its type and state), 3 made by another bucket rule, -1 out of memory. */
static int load_bucket(gb_triage_result_t *res, json_object *o)
{
    const char *type = gb_tj_str(o, "type", "");
    char state[600], id[17];
    load_state(json_object_object_get(o, "state"), state, sizeof state);
    gb_bucket_id(type, state, id);
    /* A crash.json edited by hand that no longer hashes to its id is
     * left alone. */
    if (strcmp(id, gb_tj_str(o, "id", "")) != 0)
        return 1;
    /* Another rule (sizes in the type, another state depth) would split
     * or merge what this one does not: its inputs are bucketed afresh.
     * A reader that runs nothing (state_frames 0: live counts) takes
     * any. */
    json_object *rule = json_object_object_get(o, "bucket_rule");
    int64_t frames = gb_tj_int(rule, "state_frames", 0);
    if (res->info.state_frames &&
        (gb_tj_int(rule, "version", 1) != GB_BUCKET_RULE || frames != res->info.state_frames))
        return 3;
    if (gb_grow(&res->buckets, &res->capb, res->nbuckets + 1, sizeof *res->buckets, 8) != 0)
        return -1;
    gb_bucket_t *b = &res->buckets[res->nbuckets++];
    memset(b, 0, sizeof *b);
    memcpy(b->id, id, sizeof id);
    snprintf(b->type, sizeof b->type, "%s", type);
    memcpy(b->state, state, sizeof state);
    b->state_frames = frames > 0 ? gb_crash_state_max((unsigned)frames) : GB_CRASH_STATE_FRAMES;
    snprintf(b->detail, sizeof b->detail, "%s", gb_tj_str(o, "detail", type));
    b->first_ms = gb_tj_parse_iso_time(gb_tj_str(o, "first_seen", ""));
    b->last_ms = gb_tj_parse_iso_time(gb_tj_str(o, "last_seen", ""));
    b->flaky = gb_tj_bool(o, "flaky");
    b->run.status = gb_tj_status_of(gb_tj_str(o, "status", "crash"));
    b->run.signal = (int)gb_tj_int(o, "signal", 0);
    b->run.exit_code = (int)gb_tj_int(o, "exit_code", 0);
    const char *rep = gb_tj_str(o, "sanitizer_report", "");
    json_object *r = json_object_object_get(o, "reproducer");
    b->repro_size = (size_t)gb_tj_int(r, "size", 0);
    b->min_size = (size_t)gb_tj_int(r, "minimised_size", 0);
    b->repro_flaky = gb_tj_bool(r, "flaky");
    if ((rep[0] && !(b->report = gb_strdup(rep))) ||
        !(b->repro_path = gb_tj_raw_str(r, "from", "")) ||
        gb_tj_frames_from_json(json_object_object_get(o, "frames"), &b->frames, &b->nframes) != 0 ||
        load_inputs(b, json_object_object_get(o, "inputs")) != 0)
        return -1;
    return 0;
}

/* Keeps a bucket directory whose crash.json could not be used, and why:
 * the caller warns and rebuilds it (docs/triage.md, "Damage"). */
static int damaged(gb_triage_result_t *res, const char *id, const char *why)
{
    if (gb_grow(&res->damaged, &res->capd, res->ndamaged + 1, sizeof *res->damaged, 4) != 0)
        return -1;
    gb_damaged_t *d = &res->damaged[res->ndamaged++];
    snprintf(d->id, sizeof d->id, "%s", id);
    snprintf(d->why, sizeof d->why, "%s", why);
    return 0;
}

/* Parses one bucket's crash.json from the bucket directory `id`. */
static int load_one(int dfd, const char *id, gb_triage_result_t *res)
{
    uint8_t *data;
    size_t len;
    gb_err_t re;
    int bfd = gb_dir_openat(dfd, id, 0, &re);
    if (bfd < 0)
        return damaged(res, id, re.msg);
    int got = gb_read_file_at(bfd, "crash.json", 64u << 20, &data, &len, &re);
    close(bfd);
    if (got != 0)
        return damaged(res, id, re.msg);
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, (const char *)data, (int)len) : NULL;
    int rc = o && json_object_is_type(o, json_type_object) ? load_bucket(res, o) : 2;
    json_object_put(o);
    if (tok)
        json_tokener_free(tok);
    gb_free(data);
    if (rc == 1)
        return damaged(res, id, "crash.json: its id is not the hash of its type and state");
    if (rc == 3) {
        if (damaged(res, id,
                    "made by another bucket rule (sizes in the type, or another "
                    "--state-frames)") != 0)
            return -1;
        res->damaged[res->ndamaged - 1].retire = 1;
        return 0;
    }
    if (rc == 2)
        return damaged(res, id, "crash.json is not a JSON object (damaged)");
    return rc;
}

int gb_report_load_at(int rfd, gb_triage_result_t *res, gb_err_t *e)
{
    int dfd = dup(rfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return gb_err_sys(e, "cannot read the report directory");
    }
    rewinddir(d); /* a dup shares rfd's offset */
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d)) != NULL)
        if (strlen(de->d_name) == 16 && strspn(de->d_name, "0123456789abcdef") == 16)
            rc = load_one(dirfd(d), de->d_name, res);
    closedir(d);
    return rc ? gb_err_set(e, "out of memory loading the report") : 0;
}

int gb_report_load(const char *dir, gb_triage_result_t *res, gb_err_t *e)
{
    gb_err_t oe;
    int rfd = gb_dir_open(dir, NULL, 0, &oe);
    if (rfd < 0)
        return errno == ENOENT ? 0 : gb_err_set(e, "%s", oe.msg);
    int rc = gb_report_load_at(rfd, res, e);
    close(rfd);
    return rc;
}

/* ---- summary.json ------------------------------------------------------------------------ */

static json_object *bucket_summary(const gb_bucket_t *b)
{
    json_object *o = json_object_new_object();
    add_str(o, "id", b->id);
    add_str(o, "type", b->type);
    add_str(o, "detail", b->detail);
    json_object_object_add(o, "likely_bug", json_object_new_int64((int64_t)b->likely_bug));
    json_object_object_add(o, "state", state_json(b->state));
    json_object_object_add(o, "count", json_object_new_int64((int64_t)b->ninputs));
    json_object_object_add(o, "flaky", json_object_new_boolean(b->flaky));
    json_object_object_add(o, "new", json_object_new_boolean(b->is_new));
    long k = gb_tj_top_located_frame(b);
    if (k >= 0) {
        char loc[300];
        snprintf(loc, sizeof loc, "%s:%u", b->frames[k].file, b->frames[k].line);
        add_str(o, "location", loc);
    } else {
        json_object_object_add(o, "location", NULL);
    }
    add_time(o, "first_seen", b->first_ms);
    add_time(o, "last_seen", b->last_ms ? b->last_ms : b->first_ms);
    add_str(o, "dir", b->id);
    return o;
}

/* [{"bug","buckets":[ids],"why":[...]}]: every group of more than one
 * bucket, with the links that joined it (gb_triage_link). */
static json_object *likely_bugs_json(const gb_triage_result_t *res)
{
    json_object *a = json_object_new_array();
    const gb_bucket_t *b = res->buckets;
    for (size_t c = 1; c <= res->likely_bugs; c++) {
        json_object *ids = json_object_new_array(), *why = json_object_new_array();
        const char *seen[2] = {NULL, NULL};
        for (size_t i = 0; i < res->nbuckets; i++) {
            if (b[i].likely_bug != c)
                continue;
            json_object_array_add(ids, json_object_new_string(res->buckets[i].id));
            for (size_t j = 0; j < i; j++) {
                const char *w =
                    b[j].likely_bug == c ? gb_triage_link(&b[i], &b[j]) : NULL;
                if (!w || (seen[0] && strcmp(seen[0], w) == 0) ||
                    (seen[1] && strcmp(seen[1], w) == 0))
                    continue;
                seen[seen[0] ? 1 : 0] = w;
                json_object_array_add(why, json_object_new_string(w));
            }
        }
        if (json_object_array_length(ids) < 2) {
            json_object_put(ids);
            json_object_put(why);
            continue;
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "bug", json_object_new_int64((int64_t)c));
        json_object_object_add(o, "buckets", ids);
        json_object_object_add(o, "why", why);
        json_object_array_add(a, o);
    }
    return a;
}

static json_object *last_run_json(const gb_triage_result_t *res)
{
    json_object *o = json_object_new_object();
    size_t fresh = 0;
    for (size_t i = 0; i < res->nbuckets; i++)
        fresh += (size_t)res->buckets[i].is_new;
    const struct {
        const char *k;
        size_t v;
    } n[] = {
        {"inputs", res->inputs},   {"ran", res->ran},         {"duplicates", res->duplicates},
        {"crashed", res->crashed}, {"flaky", res->flaky},     {"no_longer_crash", res->no_crash},
        {"errors", res->errors},   {"skipped", res->skipped}, {"new_buckets", fresh}};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        json_object_object_add(o, n[i].k, json_object_new_int64((int64_t)n[i].v));
    json_object *notes = json_object_new_array();
    for (size_t i = 0; i < res->nnotes; i++) {
        json_object *x = json_object_new_object();
        add_str(x, "path", res->notes[i].path);
        add_str(x, "what", res->notes[i].what);
        json_object_array_add(notes, x);
    }
    json_object_object_add(o, "notes", notes);
    return o;
}

int gb_report_summary(const gb_report_ctx_t *c, const gb_triage_result_t *res, gb_err_t *e)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "engine", engine_json());
    add_time(o, "generated", gb_time_ms());
    json_object *bin = binary_json(c);
    json_object_object_add(bin, "symbolizer",
                           json_object_new_boolean(c->info && c->info->symbolizer));
    json_object_object_add(o, "binary", bin);
    json_object_object_add(o, "argv", argv_json(c));
    json_object_object_add(o, "runs_per_input", json_object_new_int(GB_TRIAGE_RUNS));
    json_object_object_add(o, "bucket_rule", rule_json(c->info ? c->info->state_frames : 0));
    json_object_object_add(o, "timeout_ms", json_object_new_int64(c->timeout_ms));
    json_object_object_add(o, "sanitizer_options", options_json(c));
    json_object *w = json_object_new_array();
    for (size_t i = 0; i < res->nwarnings; i++)
        json_object_array_add(w, gb_tj_jstr(res->warnings[i]));
    json_object_object_add(o, "warnings", w);
    json_object *bs = json_object_new_array();
    size_t flaky = 0, inputs = 0;
    for (size_t i = 0; i < res->nbuckets; i++) {
        json_object_array_add(bs, bucket_summary(&res->buckets[i]));
        flaky += (size_t)res->buckets[i].flaky;
        inputs += res->buckets[i].ninputs;
    }
    json_object *tot = json_object_new_object();
    json_object_object_add(tot, "buckets", json_object_new_int64((int64_t)res->nbuckets));
    json_object_object_add(tot, "flaky_buckets", json_object_new_int64((int64_t)flaky));
    json_object_object_add(tot, "crashing_inputs", json_object_new_int64((int64_t)inputs));
    json_object_object_add(tot, "triaged_inputs", json_object_new_int64((int64_t)res->triaged));
    json_object_object_add(tot, "no_longer_crash",
                           json_object_new_int64((int64_t)res->triaged_no_crash));
    json_object_object_add(tot, "likely_bugs", json_object_new_int64((int64_t)res->likely_bugs));
    json_object_object_add(o, "totals", tot);
    json_object_object_add(o, "buckets", bs);
    json_object_object_add(o, "likely_bugs", likely_bugs_json(res));
    json_object_object_add(o, "last_run", last_run_json(res));
    int rc = gb_tj_write_json_at(c->dirfd, "summary.json", c->tmpfd, o, e);
    json_object_put(o);
    return rc;
}
