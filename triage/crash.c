/* SPDX-License-Identifier: Apache-2.0 */
/* The crash runner: runs inputs on a (sanitizer) build, reads what the
 * sanitizer wrote, symbolizes the stack and reduces it to a crash state.
 * A binary with a forkserver is driven through it (tmin probes thousands
 * of times); others get one fork/exec per run. Either way the sanitizers
 * write their reports to WORK/san.<pid> (log_path): the forkserver has no
 * way to hand us the child's stderr. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"
#include "triage.h"

/* The sanitizer settings every run gets, besides log_path and the limits.
 * symbolize=0: we symbolize once per address through our own coprocess,
 * cached, instead of the runtime starting llvm-symbolizer every run.
 * abort_on_error: a report ends in SIGABRT, which the forkserver sees as
 * a crash. handle_abort / handle_sigill: abort() and __builtin_trap()
 * get a stack like a SEGV does. */
#define ASAN_BASE                                                                                  \
    "abort_on_error=1:symbolize=0:halt_on_error=1:handle_segv=1:handle_sigbus=1:"                  \
    "handle_sigfpe=1:handle_sigill=1:handle_abort=1:allocator_may_return_null=0"
#define UBSAN_BASE                                                                                 \
    "halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1:symbolize=0"

/* Markers: an AFL++ runtime (a forkserver), and the sanitizer runtimes. */
#define MARK_AFL "__AFL_SHM_ID"
#define MARK_ASAN "AddressSanitizer"
#define MARK_UBSAN "__ubsan_handle"

#define OPTS_MAX 512
#define ENV_MAX (OPTS_MAX + PATH_MAX + 64)

struct gb_crash_runner {
    char *bin, *work_dir, *input_path, *san_prefix;
    int wfd;     /* work_dir, open: the input and the logs go by descriptor */
    char **argv; /* the run's argv (input_path in place of @@) */
    unsigned timeout_ms, mem_limit_mb;
    unsigned state_frames; /* frames in a crash state */
    gb_fsrv_t *fsrv;
    gb_symbolizer_t *sym;
    int asan, ubsan;
    /* "ASAN_OPTIONS=..." as a user would set them (no log_path), and with
     * log_path as every run gets them. */
    char asan_show[OPTS_MAX + 16], ubsan_show[OPTS_MAX + 16];
    char asan_env[ENV_MAX], ubsan_env[ENV_MAX];
    char *env_extra[3];
    char *log_text; /* GB_SANREP_MAX_BYTES + 1: the last run's logs */
};

/* ---- crash state ------------------------------------------------------------ */

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Sanitizer runtimes, libc's own entry points and the libc functions the
 * sanitizers intercept: where a crash is seen, never where it is made. */
static int runtime_func(const char *fn)
{
    /* (clang-format would put each name on a line of its own.) */
    /* clang-format off */
    static const char *const prefixes[] = {
        "__asan", "__lsan", "__ubsan", "__msan", "__tsan", "__hwasan", "__sanitizer",
        "__interceptor_", "___interceptor_", "__interception", "__libc_", "__GI_", "_start",
        "__assert_", "__stack_chk_fail", "__fortify_fail", "__chk_fail", "operator new",
        "operator delete", "fuzzer::", "LLVMFuzzerRunDriver", "__afl_", "__gb_"};
    static const char *const exact[] = {
        "abort", "raise", "gsignal", "exit", "_exit", "malloc", "calloc", "realloc", "free",
        "memalign", "posix_memalign", "aligned_alloc", "valloc", "pvalloc", "reallocarray",
        "memcpy", "memmove", "memset", "memcmp", "bcmp", "memchr", "memmem", "strcmp", "strncmp",
        "strcasecmp", "strncasecmp", "strcpy", "strncpy", "strcat", "strncat", "strlen",
        "strnlen", "strchr", "strrchr", "strstr", "strdup", "strndup", "strtol", "strtoul",
        "sprintf", "snprintf", "vsprintf", "vsnprintf", "printf", "fprintf", "puts", "fwrite",
        "fread", "ExecuteFilesOnyByOne"};
    /* clang-format on */
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (has_prefix(fn, prefixes[i]))
            return 1;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(fn, exact[i]) == 0)
            return 1;
    return 0;
}

/* Sources of the sanitizer and fuzzer runtimes, glibc, and the drivers
 * that feed a harness (Glassbox's file-reading main, libFuzzer's, AFL++'s). */
static int runtime_file(const char *file)
{
    /* Specific paths only: a user's own tree may well have an asan/ dir. */
    static const char *const parts[] = {"compiler-rt/",    "/sanitizer_common/", "/fuzzer/Fuzzer",
                                        "aflpp_driver",    "afl_driver",         "/sysdeps/",
                                        "/stdlib/abort.c", "/assert/assert.c"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (strstr(file, parts[i]))
            return 1;
    return ends_with(file, "tracer/rt/driver.c") || ends_with(file, "tracer/rt/driver_cov.c");
}

/* Shared libraries that are never the bug's place. */
static int runtime_module(const char *module)
{
    static const char *const libs[] = {
        "libc.so", "libc-2",   "libm.so",   "libm-2", "libpthread",  "ld-linux",  "libdl",
        "librt",   "libgcc_s", "libstdc++", "libc++", "libclang_rt", "linux-vdso"};
    const char *base = strrchr(module, '/');
    base = base ? base + 1 : module;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (has_prefix(base, libs[i]))
            return 1;
    return 0;
}

int gb_frame_ignored(const gb_frame_t *f)
{
    if (f->module[0] && runtime_module(f->module))
        return 1;
    if (f->file[0] && runtime_file(f->file))
        return 1;
    return f->func[0] && runtime_func(f->func);
}

/* What a frame contributes to the state: its function, or module+offset
 * (the module's base name, so the state survives moving the binary). */
static int frame_name(const gb_frame_t *f, char *out, size_t cap)
{
    if (f->func[0])
        return snprintf(out, cap, "%s", f->func);
    if (!f->module[0])
        return 0;
    const char *base = strrchr(f->module, '/');
    return snprintf(out, cap, "%s+0x%llx", base ? base + 1 : f->module,
                    (unsigned long long)f->offset);
}

unsigned gb_crash_state_max(unsigned max)
{
    if (max == 0)
        return GB_CRASH_STATE_FRAMES;
    return max > GB_CRASH_STATE_FRAMES_MAX ? GB_CRASH_STATE_FRAMES_MAX : max;
}

size_t gb_crash_state_frames(const gb_frame_t *frames, size_t n, unsigned max, size_t *idx)
{
    size_t taken = 0, want = gb_crash_state_max(max);
    for (size_t i = 0; i < n && taken < want; i++) {
        if (gb_frame_ignored(&frames[i]) || (!frames[i].func[0] && !frames[i].module[0]))
            continue;
        idx[taken++] = i;
        /* Whatever called the harness is a driver (libFuzzer's main,
         * AFL++'s, Glassbox's, a custom one): the bug is above it. */
        if (strcmp(frames[i].func, "LLVMFuzzerTestOneInput") == 0)
            break;
    }
    return taken;
}

void gb_crash_state(const gb_frame_t *frames, size_t n, unsigned max, char *state, size_t cap)
{
    size_t idx[GB_CRASH_STATE_FRAMES_MAX], at = 0;
    size_t k = gb_crash_state_frames(frames, n, max, idx);
    if (cap == 0)
        return;
    state[0] = '\0';
    for (size_t j = 0; j < k; j++) {
        const gb_frame_t *f = &frames[idx[j]];
        char name[sizeof f->func + sizeof f->module + 24];
        if (frame_name(f, name, sizeof name) <= 0)
            continue;
        int w = snprintf(state + at, cap - at, "%s%s", at ? "\n" : "", name);
        if (w < 0 || (size_t)w >= cap - at) {
            state[at] = '\0'; /* a frame that does not fit whole is left out */
            break;
        }
        at += (size_t)w;
    }
}

void gb_crash_state_line(const char *state, char *out, size_t cap)
{
    size_t at = 0;
    if (cap == 0)
        return;
    for (const char *p = state; *p && at + 4 < cap; p++) {
        if (*p == '\n') {
            memcpy(out + at, " < ", 3);
            at += 3;
        } else {
            out[at++] = *p;
        }
    }
    out[at] = '\0';
}

int gb_crash_same(const gb_crash_t *a, const gb_crash_t *b)
{
    return a->crashed && b->crashed && strcmp(a->type, b->type) == 0 &&
           strcmp(a->state, b->state) == 0;
}

void gb_bucket_id(const char *type, const char *state, char id[17])
{
    size_t tl = strlen(type), sl = strlen(state);
    char *buf = gb_malloc(tl + sl + 2);
    uint64_t h = 0;
    if (buf) {
        memcpy(buf, type, tl);
        buf[tl] = '\n';
        memcpy(buf + tl + 1, state, sl + 1);
        h = gb_hash64(buf, tl + sl + 1, 0x676c617373626f78ull);
        gb_free(buf);
    }
    snprintf(id, 17, "%016llx", (unsigned long long)h);
}

void gb_crash_clear(gb_crash_t *c)
{
    if (!c)
        return;
    gb_free(c->frames);
    gb_free(c->report);
    memset(c, 0, sizeof *c);
}

/* ---- runner set-up ---------------------------------------------------------- */

static char *join_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = gb_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The options the target gets. A memory limit becomes ASan's own limits:
 * RLIMIT_AS would stop ASan from reserving its shadow at all. */
static int make_env(gb_crash_runner_t *r, int detect_leaks, gb_err_t *e)
{
    char lim[96] = "";
    if (r->mem_limit_mb && (r->asan || r->ubsan))
        snprintf(lim, sizeof lim, ":max_allocation_size_mb=%u:hard_rss_limit_mb=%u",
                 r->mem_limit_mb, r->mem_limit_mb);
    int a = snprintf(r->asan_show, sizeof r->asan_show, "ASAN_OPTIONS=%s:detect_leaks=%d%s",
                     ASAN_BASE, detect_leaks ? 1 : 0, lim);
    int u = snprintf(r->ubsan_show, sizeof r->ubsan_show, "UBSAN_OPTIONS=%s", UBSAN_BASE);
    /* Quoted: the sanitizers' option parser splits at ':' and blanks
     * but reads a quoted value whole. */
    int a2 = snprintf(r->asan_env, sizeof r->asan_env, "%s:log_path=\"%s\"", r->asan_show,
                      r->san_prefix);
    int u2 = snprintf(r->ubsan_env, sizeof r->ubsan_env, "%s:log_path=\"%s\"", r->ubsan_show,
                      r->san_prefix);
    if (a < 0 || u < 0 || a2 < 0 || u2 < 0 || (size_t)a2 >= sizeof r->asan_env ||
        (size_t)u2 >= sizeof r->ubsan_env)
        return gb_err_set(e, "work directory path too long: %s", r->work_dir);
    if (strpbrk(r->san_prefix, "\"\n"))
        return gb_err_set(e,
                          "the work directory %s must not contain '\"' or a newline "
                          "(the sanitizers' log_path cannot say it)",
                          r->work_dir);
    r->env_extra[0] = r->asan_env;
    r->env_extra[1] = r->ubsan_env;
    r->env_extra[2] = NULL;
    return 0;
}

/* Sets `kv` ("K=V") in our environment; the old value goes to *old
 * (malloc'd, NULL when it was unset). */
static int env_swap(const char *kv, char **old)
{
    const char *eq = strchr(kv, '=');
    char key[32];
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    const char *cur = getenv(key);
    *old = cur ? gb_strdup(cur) : NULL;
    return setenv(key, eq + 1, 1);
}

static void env_restore(const char *kv, char *old)
{
    const char *eq = strchr(kv, '=');
    char key[32];
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    if (old)
        setenv(key, old, 1);
    else
        unsetenv(key);
    gb_free(old);
}

/* gb_fsrv reads the target's environment from ours at start (and keeps
 * it for restarts), so the options are set around the start only. */
static int start_fsrv(gb_crash_runner_t *r, gb_err_t *e)
{
    char *old_a = NULL, *old_u = NULL;
    if (env_swap(r->asan_env, &old_a) != 0 || env_swap(r->ubsan_env, &old_u) != 0) {
        env_restore(r->asan_env, old_a);
        return gb_err_sys(e, "setenv for the sanitizer options");
    }
    gb_fsrv_opts_t o = {.argv = r->argv,
                        .input_path = r->input_path,
                        .timeout_ms = r->timeout_ms,
                        .mem_limit_mb = (r->asan || r->ubsan) ? 0 : r->mem_limit_mb};
    int rc = gb_fsrv_start(&o, &r->fsrv, e);
    env_restore(r->ubsan_env, old_u);
    env_restore(r->asan_env, old_a);
    return rc;
}

static int copy_target(gb_crash_runner_t *r, const gb_crash_target_t *t, gb_err_t *e)
{
    r->timeout_ms = t->timeout_ms ? t->timeout_ms : GB_RUN_TIMEOUT_MS;
    r->mem_limit_mb = t->mem_limit_mb;
    r->state_frames = gb_crash_state_max(t->state_frames);
    if (!(r->bin = gb_strdup(t->bin)) || !(r->work_dir = gb_strdup(t->work_dir)) ||
        !(r->input_path = join_path(t->work_dir, "input")) ||
        !(r->san_prefix = join_path(t->work_dir, "san")) ||
        !(r->log_text = gb_malloc(GB_SANREP_MAX_BYTES + 1)) ||
        !(r->argv = gb_argv_build(t->bin, t->args, t->nargs, r->input_path)))
        return gb_err_set(e, "out of memory setting up a crash runner");
    return 0;
}

/* Which runtimes the binary carries; 1 if it has a forkserver. */
static int inspect(gb_crash_runner_t *r, gb_err_t *e)
{
    int afl = gb_binary_has_marker(r->bin, MARK_AFL, e);
    if (afl < 0 || (r->asan = gb_binary_has_marker(r->bin, MARK_ASAN, e)) < 0 ||
        (r->ubsan = gb_binary_has_marker(r->bin, MARK_UBSAN, e)) < 0)
        return -1;
    return afl;
}

int gb_crash_runner_new(const gb_crash_target_t *t, gb_crash_runner_t **out, gb_err_t *e)
{
    *out = NULL;
    if (!t || !t->bin || !t->work_dir)
        return gb_err_set(e, "gb_crash_runner_new: bin and work_dir are required");
    if (gb_check_executable(t->bin, e) != 0)
        return -1;
    gb_crash_runner_t *r = gb_calloc(1, sizeof *r);
    if (!r)
        return gb_err_set(e, "out of memory setting up a crash runner");
    /* Opened once: a work dir swapped for a symlink later is not
     * followed by our writes. A leftover "input" (or a symlink planted
     * as one) is removed, never written through. */
    if ((r->wfd = gb_dir_open(t->work_dir, NULL, 1, e)) < 0) {
        gb_free(r);
        return -1;
    }
    gb_file_remove_at(r->wfd, "input");
    int afl;
    if (copy_target(r, t, e) != 0 || (afl = inspect(r, e)) < 0 ||
        make_env(r, t->detect_leaks, e) != 0) {
        gb_crash_runner_free(r);
        return -1;
    }
    /* A runtime whose forkserver does not answer (a deferred one, a
     * handshake we do not speak) still runs one exec per input. */
    gb_err_t fsrv_err;
    if (afl && start_fsrv(r, &fsrv_err) != 0)
        r->fsrv = NULL;
    /* No symbolizer is no failure: frames then stay module+offset. */
    gb_err_t ignored;
    if (!t->no_symbolizer)
        gb_symbolizer_new(t->symbolizer, &r->sym, &ignored);
    *out = r;
    return 0;
}

void gb_crash_runner_free(gb_crash_runner_t *r)
{
    if (!r)
        return;
    gb_fsrv_stop(r->fsrv);
    gb_symbolizer_free(r->sym);
    if (r->wfd >= 0)
        close(r->wfd);
    gb_argv_free(r->argv);
    gb_free(r->bin);
    gb_free(r->work_dir);
    gb_free(r->input_path);
    gb_free(r->san_prefix);
    gb_free(r->log_text);
    gb_free(r);
}

void gb_crash_runner_info(const gb_crash_runner_t *r, gb_crash_runner_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->forkserver = r->fsrv != NULL;
    info->asan = r->asan;
    info->ubsan = r->ubsan;
    info->symbolizer = r->sym != NULL;
    info->state_frames = r->state_frames;
    info->sanitizer_env[0] = r->asan_show;
    info->sanitizer_env[1] = r->ubsan_show;
}

/* ---- one probe ---------------------------------------------------------------- */

/* Appends the end of the log file `name` (at most what is left of the
 * buffer) to r->log_text[*have], then removes it. */
static void take_log(gb_crash_runner_t *r, int dfd, const char *name, size_t *have)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        size_t room = GB_SANREP_MAX_BYTES - *have;
        size_t n = (size_t)st.st_size < room ? (size_t)st.st_size : room;
        ssize_t got = pread(fd, r->log_text + *have, n, st.st_size - (off_t)n);
        if (got > 0)
            *have += (size_t)got;
    }
    if (fd >= 0)
        close(fd);
    gb_file_remove_at(dfd, name);
}

/* Gathers (and removes) every san.* log of the last run; their length. */
static size_t collect_logs(gb_crash_runner_t *r)
{
    size_t have = 0;
    int fd = dup(r->wfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        r->log_text[0] = '\0';
        return 0;
    }
    rewinddir(d); /* the dup shares the offset the last pass left at the end */
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strncmp(de->d_name, "san.", 4) == 0)
            take_log(r, dirfd(d), de->d_name, &have);
    closedir(d);
    r->log_text[have] = '\0';
    return have;
}

static int run_once(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_run_result_t *res,
                    gb_err_t *e)
{
    if (r->fsrv) {
        /* A forkserver that died is restarted by the next run: one more try. */
        if (gb_fsrv_run(r->fsrv, in, len, res, e) == 0)
            return 0;
        collect_logs(r);
        return gb_fsrv_run(r->fsrv, in, len, res, e);
    }
    gb_err_t we;
    if (gb_file_write_at(r->wfd, "input", -1, in, len, &we) != 0)
        return gb_err_set(e, "%s: %s", r->input_path, we.msg);
    gb_exec_opts_t o = {.argv = r->argv,
                        .env_extra = r->env_extra,
                        .timeout_ms = r->timeout_ms,
                        .mem_limit_mb = (r->asan || r->ubsan) ? 0 : r->mem_limit_mb,
                        .stdin_path = r->input_path};
    return gb_exec_run(&o, res, e);
}

/* The type of a crash the sanitizers said nothing about. */
static void type_from_run(const gb_run_result_t *res, char *type, size_t cap)
{
    if (res->status == GB_RUN_TIMEOUT) {
        snprintf(type, cap, "timeout");
    } else if (res->signal == SIGABRT) {
        snprintf(type, cap, "abort");
    } else {
        const char *abbrev = sigabbrev_np(res->signal);
        if (abbrev)
            snprintf(type, cap, "signal SIG%s", abbrev);
        else
            snprintf(type, cap, "signal %d", res->signal);
    }
}

/* Fills c from the run's end and its logs. */
static int analyse(gb_crash_runner_t *r, size_t loglen, gb_crash_t *c, gb_err_t *e)
{
    gb_sanrep_t rep;
    if (gb_sanrep_parse(r->log_text, loglen, &rep, e) != 0)
        return -1;
    if (loglen && !(c->report = gb_strdup(r->log_text))) {
        gb_sanrep_clear(&rep);
        return gb_err_set(e, "out of memory keeping a sanitizer report");
    }
    c->crashed = rep.found || c->run.status == GB_RUN_CRASH || c->run.status == GB_RUN_TIMEOUT;
    if (!c->crashed) {
        gb_sanrep_clear(&rep);
        return 0;
    }
    if (rep.found && rep.type[0])
        snprintf(c->type, sizeof c->type, "%s", rep.type);
    else
        type_from_run(&c->run, c->type, sizeof c->type);
    snprintf(c->detail, sizeof c->detail, "%s",
             rep.found && rep.type[0] && rep.detail[0] ? rep.detail : c->type);
    c->frames = rep.frames;
    c->nframes = rep.nframes;
    rep.frames = NULL;
    gb_sanrep_clear(&rep);
    if (r->sym && gb_symbolize_frames(r->sym, &c->frames, &c->nframes, e) != 0)
        return -1;
    gb_crash_state(c->frames, c->nframes, r->state_frames, c->state, sizeof c->state);
    return 0;
}

int gb_crash_probe(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_crash_t *c, gb_err_t *e)
{
    memset(c, 0, sizeof *c);
    collect_logs(r); /* a stale log must not be read as this run's */
    if (run_once(r, in, len, &c->run, e) != 0) {
        c->run.status = GB_RUN_ERROR;
        return -1;
    }
    if (analyse(r, collect_logs(r), c, e) != 0) {
        gb_crash_clear(c);
        return -1;
    }
    return 0;
}
