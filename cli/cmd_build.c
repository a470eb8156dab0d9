/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox build: from a harness (one or more sources), the six builds a
 * campaign uses: NAME.trace and NAME.cov (glassbox-cc), NAME.lf (libFuzzer
 * + ASan), NAME.asan (ASan with a file-reading main, to replay), and
 * NAME.afl and NAME.cmplog (afl-clang-fast, for afl-fuzz). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_base.h"
#include "gb_files.h"

#define MAX_ARGV 256

/* Runs argv; its output goes to the log open as `logfd`. 0 if it exited 0. */
static int run_logged(char **argv, int logfd)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (logfd >= 0) {
            dup2(logfd, 1);
            dup2(logfd, 2);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Splits a flags string on spaces (no quoting) into argv[*n...]. */
static void add_words(char **argv, int *n, char *flags)
{
    for (char *w = strtok(flags, " \t"); w && *n < MAX_ARGV - 8; w = strtok(NULL, " \t"))
        argv[(*n)++] = w;
}

typedef struct build {
    const char *dir, *name, *log;
    int log_fd; /* DIR/NAME.build.log, opened through base/files.c */
    char *flags;
    const char **srcs;
    int nsrc;
    char self_dir[PATH_MAX];
} build_t;

static int one(build_t *b, const char *what, const char *const *head, int nhead,
               const char *tail_obj, const char *last_obj)
{
    char out[PATH_MAX], *argv[MAX_ARGV], flags[4096];
    int n = 0;
    snprintf(out, sizeof out, "%s/%s.%s", b->dir, b->name, what);
    snprintf(flags, sizeof flags, "%s", b->flags ? b->flags : "");
    for (int i = 0; i < nhead; i++)
        argv[n++] = (char *)head[i];
    add_words(argv, &n, flags);
    for (int i = 0; i < b->nsrc && n < MAX_ARGV - 6; i++)
        argv[n++] = (char *)b->srcs[i];
    if (tail_obj)
        argv[n++] = (char *)tail_obj;
    if (last_obj)
        argv[n++] = (char *)last_obj;
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n] = NULL;
    printf("building %s\n", out);
    fflush(stdout);
    return run_logged(argv, b->log_fd);
}

/* 1 if any source is C++ (by its extension, as clang decides). */
static int any_cxx(const build_t *b)
{
    static const char *const ext[] = {".cc", ".cpp", ".cxx", ".c++", ".C", ".CC", ".cp"};
    for (int i = 0; i < b->nsrc; i++) {
        const char *dot = strrchr(b->srcs[i], '.');
        for (size_t k = 0; dot && k < sizeof ext / sizeof ext[0]; k++)
            if (!strcmp(dot, ext[k]))
                return 1;
    }
    return 0;
}

static int build_all(build_t *b, const char **failed)
{
    char cc[PATH_MAX + 32], rt[PATH_MAX + 32], san[PATH_MAX + 32];
    /* C++ harnesses are compiled and linked as C++ (the C++ runtime comes
     * with the link, no -lstdc++ needed). */
    int cxx = any_cxx(b);
    snprintf(cc, sizeof cc, "%s/%s", b->self_dir, cxx ? "glassbox-c++" : "glassbox-cc");
    snprintf(rt, sizeof rt, "%s/../lib/libgb_rt_cov.a", b->self_dir);
    snprintf(san, sizeof san, "%s/../lib/gb_san_defaults.o", b->self_dir);
    const char *clang = cxx ? GB_CLANGXX_PATH : GB_CLANG_PATH;
    const char *trace[] = {cc, "--mode=trace", "-O2", "-g"};
    const char *cov[] = {cc, "--mode=cov", "-O2", "-g"};
    const char *lf[] = {clang, "-O1", "-g", "-fsanitize=fuzzer,address"};
    /* The sanitizers' defaults come last (gb_san_defaults.o): a harness's
     * own, earlier on the line, win; ours beat the runtime's weak ones. */
    const char *asan[] = {clang, "-O1", "-g", "-fsanitize=address,undefined",
                          "-Wl,--allow-multiple-definition"};
    /* AFL++ at its best beside Glassbox: its own edge instrumentation with
     * libAFLDriver (-fsanitize=fuzzer under afl-clang-fast), and the same
     * with cmplog, which afl-fuzz runs as its target with -c 0
     * (docs/campaign.md, "AFL++ in a campaign"). */
    const char *afl_cc = cxx ? "afl-clang-fast++" : "afl-clang-fast";
    const char *afl[] = {afl_cc, "-O2", "-g", "-fsanitize=fuzzer"};
    if (one(b, "trace", trace, 4, NULL, NULL) != 0)
        return *failed = "trace", -1;
    if (one(b, "cov", cov, 4, NULL, NULL) != 0)
        return *failed = "cov", -1;
    if (one(b, "lf", lf, 4, NULL, NULL) != 0)
        return *failed = "lf (libFuzzer)", -1;
    if (one(b, "asan", asan, 5, rt, san) != 0)
        return *failed = "asan", -1;
    setenv("AFL_QUIET", "1", 0);
    if (one(b, "afl", afl, 4, NULL, NULL) != 0)
        return *failed = "afl (afl-clang-fast)", -1;
    setenv("AFL_LLVM_CMPLOG", "1", 1);
    int rc = one(b, "cmplog", afl, 4, NULL, NULL);
    unsetenv("AFL_LLVM_CMPLOG");
    if (rc != 0)
        return *failed = "cmplog (afl-clang-fast, AFL_LLVM_CMPLOG=1)", -1;
    return 0;
}

gb_exit_t gb_cmd_build(int argc, char **argv)
{
    build_t b = {0};
    const gb_opt_t opts[] = {
        GB_OPTION_STR('o', "output", "DIR", NULL, ".", &b.dir, "where the builds go"),
        GB_OPTION_STR('n', "name", "NAME", NULL, NULL, &b.name,
                      "base name; without it, the first source's without its extension"),
        GB_OPTION_STR(0, "cflags", "FLAGS", "GLASSBOX_CFLAGS", NULL, &b.flags,
                      "extra compiler flags, space-separated (-I, -D, libraries)"),
    };
    const gb_cmd_t cmd = {"build", "[-o DIR] [-n NAME] [--cflags FLAGS] SOURCE...",
                          "Builds a libFuzzer-style harness six ways: NAME.trace and NAME.cov\n"
                          "for glassbox fuzz, NAME.lf (libFuzzer + ASan), NAME.asan (ASan +\n"
                          "UBSan, reads one input file: replays crashes, with a stack for an\n"
                          "abort too), and NAME.afl and NAME.cmplog (afl-clang-fast, without and\n"
                          "with AFL_LLVM_CMPLOG) for afl-fuzz in 'glassbox campaign'.\n"
                          "C++ sources (.cc, .cpp, .cxx) are compiled and linked as\n"
                          "C++. DIR is created if missing. Compiler output goes to\n"
                          "DIR/NAME.build.log.",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (a.npos == 0 || a.nrest)
        return gb_cli_error(GB_EXIT_USAGE, "build",
                            "usage: glassbox build [-o DIR] SOURCE... "
                            "(see --help)");
    for (int i = 0; i < a.npos; i++)
        if (access(a.pos[i], R_OK) != 0)
            return gb_cli_error(GB_EXIT_FAIL, "build", "cannot read source %s", a.pos[i]);
    char self[PATH_MAX], namebuf[256], log[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return gb_cli_fail("build", "cannot find my own path");
    self[n] = '\0';
    snprintf(b.self_dir, sizeof b.self_dir, "%s", dirname(self));
    if (!b.name) {
        snprintf(namebuf, sizeof namebuf, "%s", a.pos[0]);
        char *base = basename(namebuf), *dot = strrchr(base, '.');
        if (dot)
            *dot = '\0';
        b.name = base;
    }
    gb_err_t e;
    /* a missing -o DIR is made, as make's -o would not */
    int dfd = gb_dir_open(b.dir, NULL, 1, &e);
    snprintf(log, sizeof log, "%s.build.log", b.name);
    b.log_fd = dfd < 0 ? -1 : gb_file_open_at(dfd, log, GB_OPEN_TRUNC, &e);
    if (dfd >= 0)
        close(dfd);
    if (b.log_fd < 0)
        return gb_cli_fail("build", e.msg);
    snprintf(log, sizeof log, "%s/%s.build.log", b.dir, b.name);
    b.log = log;
    b.srcs = a.pos;
    b.nsrc = a.npos;
    const char *failed = NULL;
    int built = build_all(&b, &failed);
    close(b.log_fd);
    if (built != 0) {
        fprintf(stderr, "glassbox build: the %s build of %s failed; see %s\n", failed, b.name, log);
        return GB_EXIT_FAIL;
    }
    return GB_EXIT_OK;
}
