/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox-cc: a clang-14 wrapper usable as CC. Each source goes to
 * bitcode, is instrumented in-process for --mode=trace or --mode=cov, then
 * compiled to an object; a link step adds the matching runtime. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_int.h"
#include "gb_version.h"

#define MAX_ARGS 4096

static const char usage[] =
    "usage: glassbox-cc --mode=trace|cov [clang options] files...\n"
    "\n"
    "A clang-14 wrapper that builds Glassbox targets. Use it as CC.\n"
    "  --mode=trace   symbolic tracer build: writes a .gbt trace when run with\n"
    "                 GLASSBOX_TRACE_OUT=FILE (glassbox runs it for you)\n"
    "  --mode=cov     coverage build: one counter per basic block in AFL++'s\n"
    "                 map, linked with AFL++'s runtime (a valid afl-fuzz target)\n"
    "  GLASSBOX_MODE=trace|cov   the same, from the environment\n"
    "A program that defines LLVMFuzzerTestOneInput and no main gets a driver\n"
    "main that reads the input from argv[1] (or stdin).\n"
    "Both modes disable auto-vectorization so block ids agree between them.\n"
    "Environment: GLASSBOX_RUNTIME_DIR (runtime libraries; default ../lib\n"
    "next to this program), GLASSBOX_CC_KEEP=1 keeps the bitcode files,\n"
    "TMPDIR (where they go; default /tmp).\n";

typedef struct args {
    const char *v[MAX_ARGS];
    int n;
} args_t;

static void push(args_t *a, const char *s)
{
    if (a->n < MAX_ARGS - 1)
        a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "glassbox-cc: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static int run(args_t *a)
{
    if (getenv("GLASSBOX_CC_VERBOSE")) {
        for (int i = 0; i < a->n; i++)
            fprintf(stderr, "%s ", a->v[i]);
        fputc('\n', stderr);
    }
    pid_t pid = fork();
    if (pid < 0)
        die("cannot fork: %s", strerror(errno));
    if (pid == 0) {
        execvp(a->v[0], (char *const *)a->v);
        fprintf(stderr, "glassbox-cc: cannot run %s: %s\n", a->v[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int is_source(const char *s)
{
    const char *dot = strrchr(s, '.');
    if (!dot || s[0] == '-')
        return 0;
    static const char *const exts[] = {".c", ".cc", ".cpp", ".cxx", ".C", ".i"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    return 0;
}

/* Flags that only matter when linking (kept out of compile steps). */
static int is_link_only(const char *s)
{
    return strncmp(s, "-l", 2) == 0 || strncmp(s, "-L", 2) == 0 || strncmp(s, "-Wl,", 4) == 0 ||
           strcmp(s, "-shared") == 0 || strcmp(s, "-static") == 0 || strcmp(s, "-rdynamic") == 0 ||
           strcmp(s, "-pthread") == 0;
}

/* Flags whose value is the next argument. */
static int takes_value(const char *s)
{
    static const char *const f[] = {"-I", "-D", "-U", "-include", "-isystem", "-iquote",
                                    "-idirafter", "-MF", "-MT", "-MQ", "-x", "-Xclang",
                                    "-target", "-imacros"};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (strcmp(s, f[i]) == 0)
            return 1;
    return 0;
}

static const char *runtime_dir(void)
{
    static char dir[PATH_MAX];
    const char *env = getenv("GLASSBOX_RUNTIME_DIR");
    if (env && *env)
        return env;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        die("cannot find my own path (%s); set GLASSBOX_RUNTIME_DIR", "/proc/self/exe");
    self[n] = '\0';
    snprintf(dir, sizeof dir, "%s/../lib", dirname(self));
    return dir;
}

/* Loads `bc`, instruments it, writes `out`. */
static void instrument_file(const char *bc, const char *out, gb_cc_mode_t mode)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(bc, &mb, &msg))
        die("cannot read bitcode: %s", msg);
    LLVMModuleRef m;
    if (LLVMParseBitcodeInContext2(ctx, mb, &m))
        die("cannot parse bitcode %s", bc);
    unsigned collisions = 0;
    char err[256];
    if (gb_cc_instrument(m, mode, &collisions, err, sizeof err) != 0)
        die("%s", err);
    if (collisions && getenv("GLASSBOX_CC_VERBOSE"))
        fprintf(stderr, "glassbox-cc: %u block ids moved off a collision in this module\n", collisions);
    if (LLVMWriteBitcodeToFile(m, out) != 0)
        die("cannot write %s", out);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

typedef struct job {
    const char *clang;
    gb_cc_mode_t mode;
    args_t compile; /* flags for compile steps */
} job_t;

/* The job's temporary directory, removed at exit whichever way the job
 * ends (a compile error exits from deep inside), unless GLASSBOX_CC_KEEP.
 * File-scope because the atexit handler runs after main has returned. */
static char tmpdir[256];

static void cleanup(void)
{
    if (!tmpdir[0] || getenv("GLASSBOX_CC_KEEP"))
        return;
    char cmd[sizeof tmpdir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "glassbox-cc: could not remove %s\n", tmpdir);
}

/* source -> instrumented object `obj`. */
static void compile_one(job_t *j, const char *src, const char *obj, int idx)
{
    char bc[PATH_MAX], ibc[PATH_MAX];
    snprintf(bc, sizeof bc, "%s/%d.bc", tmpdir, idx);
    snprintf(ibc, sizeof ibc, "%s/%d.inst.bc", tmpdir, idx);
    args_t a = {0};
    push(&a, j->clang);
    for (int i = 0; i < j->compile.n; i++)
        push(&a, j->compile.v[i]);
    const char *extra[] = {"-Qunused-arguments", "-fno-vectorize", "-fno-slp-vectorize",
                           "-Xclang", "-disable-O0-optnone", "-c", "-emit-llvm", "-o", bc, src};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        push(&a, extra[i]);
    if (run(&a) != 0)
        exit(1);
    instrument_file(bc, ibc, j->mode);
    args_t b = {0};
    push(&b, j->clang);
    for (int i = 0; i < j->compile.n; i++)
        push(&b, j->compile.v[i]);
    const char *tail[] = {"-Qunused-arguments", "-Wno-override-module", "-c", "-o", obj, ibc};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        push(&b, tail[i]);
    if (run(&b) != 0)
        exit(1);
}

static gb_cc_mode_t parse_mode(const char *s)
{
    if (strcmp(s, "trace") == 0)
        return GB_CC_TRACE;
    if (strcmp(s, "cov") == 0)
        return GB_CC_COV;
    die("unknown mode '%s' (expected trace or cov)", s);
    return 0;
}

/* The runtimes are packed at build time (tracer/rt_pack.cmake) so that only
 * __gb_* names (and the drivers' main) are global in them; AFL++'s runtime
 * is linked from a copy packed the same way. */
static void add_runtime(args_t *link, gb_cc_mode_t mode)
{
    static const char *const trace[] = {"libgb_rt_trace.a"};
    static const char *const cov[] = {"gb_cov_marker.o", "libgb_rt_cov.a", "gb_afl_rt.o"};
    static char paths[3][PATH_MAX + 64];
    const char *const *names = mode == GB_CC_TRACE ? trace : cov;
    size_t n = mode == GB_CC_TRACE ? 1 : 3;
    const char *dir = runtime_dir();
    for (size_t i = 0; i < n; i++) {
        snprintf(paths[i], sizeof paths[i], "%.4000s/%s", dir, names[i]);
        if (access(paths[i], R_OK) != 0)
            die("runtime not found at %s (set GLASSBOX_RUNTIME_DIR)", paths[i]);
        push(link, paths[i]);
    }
}

int main(int argc, char **argv)
{
    job_t j = {0};
    const char *out = NULL, *srcs[MAX_ARGS];
    int nsrc = 0, compile_only = 0, passthrough = 0;
    args_t link = {0};
    const char *base = strrchr(argv[0], '/');
    j.clang = strstr(base ? base : argv[0], "++") ? GB_CLANGXX_PATH : GB_CLANG_PATH;
    const char *envmode = getenv("GLASSBOX_MODE");
    if (envmode && *envmode)
        j.mode = parse_mode(envmode);
    push(&link, j.clang);
    int src_slot[MAX_ARGS];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strncmp(s, "--mode=", 7) == 0) {
            j.mode = parse_mode(s + 7);
        } else if (strcmp(s, "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(s, "-c") == 0) {
            compile_only = 1;
        } else if (is_source(s)) {
            src_slot[nsrc] = link.n; /* replaced by the object, in place */
            srcs[nsrc++] = s;
            push(&link, s);
        } else if (takes_value(s) && i + 1 < argc) {
            push(&link, s);
            push(&link, argv[i + 1]);
            push(&j.compile, s);
            push(&j.compile, argv[++i]);
        } else {
            if (!strcmp(s, "-E") || !strcmp(s, "-S") || !strcmp(s, "-M") || !strcmp(s, "-MM") ||
                !strcmp(s, "--version") || !strcmp(s, "-v") || !strcmp(s, "-emit-llvm"))
                passthrough = 1;
            push(&link, s);
            if (s[0] == '-' && !is_link_only(s))
                push(&j.compile, s); /* other non-flags are objects and archives */
        }
    }
    if (passthrough || (nsrc == 0 && link.n == 1)) {
        args_t a = {0};
        push(&a, j.clang);
        for (int i = 1; i < argc; i++) {
            if (strncmp(argv[i], "--mode=", 7) != 0)
                push(&a, argv[i]);
            if (strcmp(argv[i], "--version") == 0) /* ours first, then clang's */
                printf("glassbox-cc %s, LLVM %s\n", GB_VERSION_FULL, GB_LLVM_VERSION);
        }
        fflush(stdout);
        return run(&a);
    }
    if (!j.mode)
        die("%s", "no mode: pass --mode=trace or --mode=cov (or set GLASSBOX_MODE); see --help");
    if (compile_only && out && nsrc > 1)
        die("%s", "-o with -c and several sources");
    const char *tmproot = getenv("TMPDIR");
    if (!tmproot || !*tmproot || strchr(tmproot, '\''))
        tmproot = "/tmp"; /* the name goes into a quoted rm command */
    char dir[sizeof tmpdir];
    if (snprintf(dir, sizeof dir, "%s/glassbox-cc.XXXXXX", tmproot) >= (int)sizeof dir)
        die("TMPDIR is too long: %s", tmproot);
    if (!mkdtemp(dir))
        die("cannot create a temporary directory: %s", strerror(errno));
    memcpy(tmpdir, dir, sizeof tmpdir); /* only a made directory is removed */
    atexit(cleanup);
    static char objs[MAX_ARGS][PATH_MAX];
    for (int i = 0; i < nsrc; i++) {
        if (compile_only && out) {
            snprintf(objs[i], PATH_MAX, "%s", out);
        } else if (compile_only) {
            char tmp[PATH_MAX];
            snprintf(tmp, sizeof tmp, "%s", srcs[i]);
            char *b = basename(tmp), *dot = strrchr(b, '.');
            if (dot)
                *dot = '\0';
            snprintf(objs[i], PATH_MAX, "%s.o", b);
        } else {
            snprintf(objs[i], PATH_MAX, "%s/%d.o", tmpdir, i);
        }
        compile_one(&j, srcs[i], objs[i], i);
        link.v[src_slot[i]] = objs[i];
    }
    int rc = 0;
    if (!compile_only) {
        add_runtime(&link, j.mode);
        push(&link, "-Qunused-arguments");
        if (out) {
            push(&link, "-o");
            push(&link, out);
        }
        rc = run(&link);
    }
    return rc; /* cleanup() removes the temporary directory */
}
