/* SPDX-License-Identifier: Apache-2.0 */
/* The file-running main of the llvmcov measuring kind: every file given, or
 * in a directory given (not recursively), through LLVMFuzzerTestOneInput, so
 * a whole corpus adds up in one profile. A crash or a hang must not lose the
 * counters of the inputs before it, so the inputs run in a forked child that
 * writes its profile on a fatal signal or a timer; the parent restarts a new
 * child after the input that killed the last one. Profiles of the children
 * add up when LLVM_PROFILE_FILE names a merge pool (%m). */
#define _GNU_SOURCE /* strdup, d_type, MAP_ANONYMOUS under -std=c11 too */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int __llvm_profile_write_file(void);
void __llvm_profile_reset_counters(void);

#define RF_MAX_INPUT (1u << 20) /* AFL++'s limit; larger files are not queued */
#define RF_TIMEOUT_S 2          /* a run that takes longer is a hang: skipped */

static char **rf_paths;
static size_t rf_npaths, rf_cap;

static void rf_add(const char *p)
{
    if (rf_npaths == rf_cap) {
        rf_cap = rf_cap ? 2 * rf_cap : 1024;
        rf_paths = realloc(rf_paths, rf_cap * sizeof *rf_paths);
        if (!rf_paths) {
            perror("gb_runfiles: realloc");
            exit(2);
        }
    }
    rf_paths[rf_npaths++] = strdup(p);
}

/* A directory's regular files (dot files left out: AFL++'s .state etc.). */
static void rf_collect(const char *arg)
{
    DIR *d = opendir(arg);
    if (!d) {
        rf_add(arg);
        return;
    }
    struct dirent *e;
    char p[4096];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", arg, e->d_name);
        if (e->d_type == DT_REG || e->d_type == DT_UNKNOWN)
            rf_add(p);
    }
    closedir(d);
}

/* The child's fatal end: counters out first, then the signal's exit code. */
static void rf_fatal(int sig)
{
    __llvm_profile_write_file();
    _exit(128 + sig);
}

static void rf_run_one(const char *path, uint8_t *buf)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, RF_MAX_INPUT, f);
    fclose(f);
    uint8_t *copy = malloc(n ? n : 1); /* its own block, as libFuzzer gives */
    if (!copy)
        return;
    memcpy(copy, buf, n);
    struct itimerval t = {{0, 0}, {RF_TIMEOUT_S, 0}};
    setitimer(ITIMER_REAL, &t, NULL);
    LLVMFuzzerTestOneInput(copy, n);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    free(copy);
}

/* Runs inputs from *next on; *next always names the input in flight. */
static void rf_child(volatile size_t *next)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGTRAP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], rf_fatal);
    __llvm_profile_reset_counters(); /* the parent's are counted by the parent */
    uint8_t *buf = malloc(RF_MAX_INPUT);
    if (!buf)
        _exit(2);
    for (; *next < rf_npaths; (*next)++)
        rf_run_one(rf_paths[*next], buf);
    free(buf);
    exit(0); /* the profile runtime writes at exit */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIR... (LLVM_PROFILE_FILE=DIR/%%m.profraw)\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++)
        rf_collect(argv[i]);
    volatile size_t *next =
        mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED) {
        perror("gb_runfiles: mmap");
        return 2;
    }
    *next = 0;
    size_t died = 0;
    while (*next < rf_npaths) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("gb_runfiles: fork");
            return 2;
        }
        if (pid == 0)
            rf_child(next);
        int st;
        waitpid(pid, &st, 0);
        if (*next < rf_npaths) { /* it died on that input: go on after it */
            died++;
            (*next)++;
        }
    }
    fprintf(stderr, "gb_runfiles: %zu inputs run, %zu crashed or hung\n", rf_npaths, died);
    return 0;
}
