/* SPDX-License-Identifier: Apache-2.0 */
/* Plain fork/exec runs with a timeout (used for trace builds), the binary
 * checks, and the child-side helpers the forkserver client shares. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bridge_int.h"

extern char **environ;

uint64_t gbb_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Length of the "K" in "K=V" (the whole string if there is no '='). */
static size_t env_key_len(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int env_same_key(const char *a, const char *b)
{
    size_t n = env_key_len(a);
    return n == env_key_len(b) && memcmp(a, b, n) == 0;
}

/* 1 if some string of `list` from index `from` on sets the key of `kv`. */
static int env_overridden(const char *kv, char *const *list, size_t from)
{
    for (size_t i = from; list && list[i]; i++)
        if (env_same_key(kv, list[i]))
            return 1;
    return 0;
}

/* Every target of this process carries GBB_MARK=<our pid>, and so does
 * everything it starts (the environment is inherited): gb_targets_reap
 * finds them by it, even one that left its process group with setsid(). */
#define GBB_MARK "GLASSBOX_TARGET_OF="
static char mark[sizeof GBB_MARK + 24];

static void mark_set(void) { snprintf(mark, sizeof mark, GBB_MARK "%ld", (long)getpid()); }

char **gbb_env_build(char *const *extra)
{
    size_t n = 0, m = 0, k = 0;
    while (environ && environ[n])
        n++;
    while (extra && extra[m])
        m++;
    char **env = gb_malloc((n + m + 2) * sizeof *env);
    if (!env)
        return NULL;
    mark_set();
    env[k++] = mark;
    for (size_t i = 0; i < n; i++)
        if (!env_overridden(environ[i], extra, 0) && !env_same_key(environ[i], mark))
            env[k++] = environ[i];
    /* The last setting of a key in `extra` wins; a bare "K" unsets K. */
    for (size_t j = 0; j < m; j++)
        if (strchr(extra[j], '=') && !env_overridden(extra[j], extra, j + 1))
            env[k++] = extra[j];
    env[k] = NULL;
    return env;
}

void gbb_subreaper(void)
{
    /* Orphans of our targets (a daemon that double-forks) are handed to us,
     * not to init, so they can be reaped once killed. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* 1 if /proc/PID/environ holds exactly the string `m`. */
static int environ_has(long pid, const char *m)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/environ", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    static char buf[1 << 18]; /* a larger environment is not one we built */
    ssize_t n, got = 0;
    while (got < (ssize_t)sizeof buf - 1 &&
           (n = read(fd, buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += n;
    close(fd);
    if (got <= 0)
        return 0;
    buf[got] = '\0';
    size_t ml = strlen(m);
    for (const char *p = buf; p < buf + got; p += strlen(p) + 1)
        if (strncmp(p, m, ml) == 0 && p[ml] == '\0')
            return 1;
    return 0;
}

/* One pass over /proc: SIGKILL to every marked process; how many. */
static int reap_pass(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    long me = (long)getpid();
    int n = 0;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || pid == me || !environ_has(pid, mark))
            continue;
        if (kill((pid_t)pid, SIGKILL) != 0)
            continue;
        n++;
        /* Ours if it was handed to us: reaped (SIGKILL ends it at once);
         * anyone else's child is its parent's to reap (ECHILD here). */
        while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    closedir(d);
    return n;
}

int gb_targets_reap(void)
{
    mark_set();
    int total = 0;
    /* A process killed while forking may leave a child: look again. */
    for (int round = 0; round < 5; round++) {
        int n = reap_pass();
        total += n;
        if (n == 0)
            break;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    return total;
}

int gbb_child_setup(unsigned mem_limit_mb, int show_output, int stdin_fd)
{
    /* Own session and process group: terminal signals do not reach the
     * target, and a timeout kill of the group reaches its children too. */
    setsid();
    /* Writing a core per crash costs far more than the run itself. */
    struct rlimit rl = {0, 0};
    setrlimit(RLIMIT_CORE, &rl);
    if (mem_limit_mb > 0) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)mem_limit_mb << 20;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            return -1;
    }
    /* Ignored or blocked signals survive exec; the target expects defaults. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &sa, NULL);

    int nul = open("/dev/null", O_RDWR); /* gb-write-ok: a sink */
    if (nul < 0)
        return -1;
    if (dup2(stdin_fd >= 0 ? stdin_fd : nul, 0) < 0)
        return -1;
    if (!show_output && (dup2(nul, 1) < 0 || dup2(nul, 2) < 0))
        return -1;
    if (nul > 2)
        close(nul);
    return 0;
}

void gbb_child_exec(char *const *argv, char **envp, int err_fd)
{
    execve(argv[0], argv, envp);
    int err = errno;
    ssize_t w = write(err_fd, &err, sizeof err);
    (void)w;
    _exit(127);
}

int gbb_exec_report(int err_rd)
{
    int err = 0;
    ssize_t r;
    do
        r = read(err_rd, &err, sizeof err);
    while (r < 0 && errno == EINTR);
    return r == (ssize_t)sizeof err ? (err ? err : EIO) : 0;
}

/* Waits for `pid` at most `timeout_ms` (0 = forever); on expiry kills its
 * process group. Reaps it either way. Returns 1 if it was killed. */
static int wait_with_timeout(pid_t pid, unsigned timeout_ms, int *status)
{
    int killed = 0;
    if (timeout_ms > 0) {
        uint64_t deadline = gbb_now_us() + (uint64_t)timeout_ms * 1000u;
        int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
        for (;;) {
            uint64_t now = gbb_now_us();
            if (now >= deadline) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                killed = 1;
                break;
            }
            int left = (int)((deadline - now + 999) / 1000);
            if (pfd >= 0) {
                struct pollfd p = {pfd, POLLIN, 0};
                if (poll(&p, 1, left) > 0)
                    break;
            } else {
                /* Old kernel without pidfd: poll the child every 1 ms. */
                if (waitpid(pid, status, WNOHANG) == pid) {
                    return 0;
                }
                struct timespec ms = {0, 1000000};
                nanosleep(&ms, NULL);
            }
        }
        if (pfd >= 0)
            close(pfd);
    }
    /* The run has ended but is not reaped, so its pid, which is its
     * process group's id, cannot be taken by another process yet: what it
     * forked and left running (a daemon, a sleeping child) ends with it,
     * rather than outlive the fuzzer. */
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    kill(-pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return killed;
}

/* Shared with the forkserver (bridge_int.h). WIFSTOPPED (a persistent-mode
 * child finishing one iteration) counts as a normal end. */
void gb_bridge_classify(int status, int timed_out, gb_run_result_t *r)
{
    if (timed_out) {
        r->status = GB_RUN_TIMEOUT;
        r->signal = SIGKILL;
    } else if (WIFSIGNALED(status)) {
        r->status = GB_RUN_CRASH;
        r->signal = WTERMSIG(status);
    } else {
        r->status = GB_RUN_OK;
        r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    }
}

/* Turns address-space randomisation off for what this process execs next.
 * A refusal (a seccomp filter, as containers' default ones have) is not an
 * error: the run goes on with ASLR, as it would have without this. */
static void fixed_layout(void)
{
    int cur = personality(0xffffffff);
    if (cur != -1 && !(cur & ADDR_NO_RANDOMIZE))
        personality((unsigned long)cur | ADDR_NO_RANDOMIZE);
}

int gb_exec_run(const gb_exec_opts_t *opts, gb_run_result_t *r, gb_err_t *e)
{
    memset(r, 0, sizeof *r);
    r->status = GB_RUN_ERROR;
    if (!opts || !opts->argv || !opts->argv[0])
        return gb_err_set(e, "gb_exec_run: no program given");
    char **envp = gbb_env_build(opts->env_extra);
    if (!envp)
        return gb_err_set(e, "out of memory starting %s", opts->argv[0]);
    gbb_subreaper();
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0) {
        gb_free(envp);
        return gb_err_sys(e, "pipe2 for %s", opts->argv[0]);
    }
    int in_fd = -1;
    if (opts->stdin_path && (in_fd = open(opts->stdin_path, O_RDONLY | O_CLOEXEC)) < 0) {
        gb_free(envp);
        close(ep[0]);
        close(ep[1]);
        return gb_err_sys(e, "cannot open %s as the stdin of %s", opts->stdin_path,
                          opts->argv[0]);
    }
    uint64_t t0 = gbb_now_us();
    pid_t pid = fork();
    if (pid == 0) {
        close(ep[0]);
        if (gbb_child_setup(opts->mem_limit_mb, opts->show_output, in_fd) != 0) {
            int err = errno;
            ssize_t w = write(ep[1], &err, sizeof err);
            (void)w;
            _exit(127);
        }
        if (opts->fixed_layout)
            fixed_layout();
        gbb_child_exec(opts->argv, envp, ep[1]);
    }
    int fork_errno = errno;
    close(ep[1]);
    if (in_fd >= 0)
        close(in_fd);
    gb_free(envp);
    if (pid < 0) {
        close(ep[0]);
        errno = fork_errno;
        return gb_err_sys(e, "fork for %s", opts->argv[0]);
    }
    int err = gbb_exec_report(ep[0]);
    close(ep[0]);
    int status = 0;
    if (err) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        errno = err;
        return gb_err_sys(e, "cannot execute %s", opts->argv[0]);
    }
    int killed = wait_with_timeout(pid, opts->timeout_ms, &status);
    r->time_us = gbb_now_us() - t0;
    gb_bridge_classify(status, killed, r);
    return 0;
}

/* A copy of `a` with its first "@@" replaced by `input`. */
static char *subst_input(const char *a, const char *input)
{
    const char *at = strstr(a, "@@");
    if (!at)
        return gb_strdup(a);
    size_t pre = (size_t)(at - a), il = strlen(input), post = strlen(at + 2);
    char *r = gb_malloc(pre + il + post + 1);
    if (r) {
        memcpy(r, a, pre);
        memcpy(r + pre, input, il);
        memcpy(r + pre + il, at + 2, post + 1);
    }
    return r;
}

char **gb_argv_build(const char *bin, char *const *args, size_t nargs, const char *input)
{
    size_t n = nargs ? nargs : 1;
    char **argv = gb_calloc(n + 2, sizeof *argv);
    if (!argv || !(argv[0] = gb_strdup(bin)))
        return gb_argv_free(argv), NULL;
    for (size_t i = 0; i < n; i++)
        if (!(argv[i + 1] = nargs ? subst_input(args[i], input) : gb_strdup(input)))
            return gb_argv_free(argv), NULL;
    return argv;
}

void gb_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        gb_free(argv[i]);
    gb_free(argv);
}

int gb_check_executable(const char *path, gb_err_t *e)
{
    struct stat st;
    if (!path || !*path)
        return gb_err_set(e, "no target program given");
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return gb_err_set(e, "%s: no such file", path);
        return gb_err_sys(e, "cannot stat %s", path);
    }
    if (!S_ISREG(st.st_mode))
        return gb_err_set(e, "%s is not a regular file", path);
    /* access() alone says yes to root for any file; the mode bits do not. */
    if (!(st.st_mode & 0111) || access(path, X_OK) != 0)
        return gb_err_set(e, "%s is not executable", path);
    return 0;
}

enum { MARKER_CHUNK = 1 << 16 };

int gb_binary_has_marker(const char *path, const char *marker, gb_err_t *e)
{
    size_t mlen = marker ? strlen(marker) : 0;
    if (mlen == 0 || mlen > MARKER_CHUNK)
        return gb_err_set(e, "bad marker for %s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    uint8_t *buf = gb_malloc(MARKER_CHUNK + mlen);
    if (!buf) {
        close(fd);
        return gb_err_set(e, "out of memory scanning %s", path);
    }
    /* Keep the last mlen-1 bytes of each chunk so a marker that straddles
     * two reads is still seen. */
    size_t have = 0;
    int found = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, MARKER_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            found = gb_err_sys(e, "cannot read %s", path);
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (memmem(buf, have, marker, mlen)) {
            found = 1;
            break;
        }
        size_t keep = have < mlen - 1 ? have : mlen - 1;
        memmove(buf, buf + have - keep, keep);
        have = keep;
    }
    gb_free(buf);
    close(fd);
    return found;
}
