/* SPDX-License-Identifier: Apache-2.0 */
/* AFL++ forkserver client: SysV shm coverage map, input through a file or
 * shared memory, fds 198/199, the 4.04c hello word with options and the
 * newer magic handshake, timed runs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bridge_int.h"
#include "gb_files.h"
#include "gb_abi.h"
#include "gb_config.h"

/* The segment is always 8 MiB, the largest map a 4.04c hello can announce
 * (FS_OPT_MAX_MAPSIZE), so a larger announced map never needs a new
 * segment and a restart keeps the same id. Only the announced size is
 * cleared per run, and untouched pages cost nothing. */
#define FSRV_SHM_BYTES (1u << 23)
/* A target that announces no size: AFL++'s MAP_SIZE, which is our cov
 * builds' map too (ids below GB_MAP_SIZE). */
#define FSRV_DEFAULT_MAP GB_MAP_SIZE
/* Shared-memory input: a u32 length, then the bytes. AFL++'s MAX_FILE (1 MiB)
 * bounds the bytes, as it does when afl-fuzz feeds the same target; it equals
 * GB_MAX_INPUT, so our own inputs always fit. */
#define FSRV_SHM_INPUT_MAX (1u << 20)
#define FSRV_SHM_INPUT_BYTES (FSRV_SHM_INPUT_MAX + 4u)

/* afl-clang-fast puts this string into every binary that uses __AFL_LOOP;
 * the runtime loops only when __AFL_PERSISTENT is set, as afl-fuzz sets it
 * on seeing the string. */
#define FSRV_PERSIST_SIG "##SIG_AFL_PERSISTENT##"
/* What __AFL_INIT leaves in a binary (libAFLDriver among them): its
 * forkserver starts where the program calls __afl_manual_init, not in a
 * constructor, and only when __AFL_DEFER_FORKSRV is set; without it the
 * constructor starts one and the program's own call aborts. */
#define FSRV_DEFER_SIG "##SIG_AFL_DEFER_FORKSRV##"

#define FSRV_CTL_FD 198
#define FSRV_ST_FD 199

/* 4.04c hello word bits (include/types.h of AFL++). */
#define FS_OPT_ENABLED 0x80000001u
#define FS_OPT_MAPSIZE 0x40000000u
#define FS_OPT_AUTODICT 0x10000000u
#define FS_OPT_SHDMEM_FUZZ 0x01000000u
#define FS_OPT_ACCEPT_SHDMEM (FS_OPT_ENABLED | FS_OPT_SHDMEM_FUZZ) /* our reply */
#define FS_OPT_OLD_WORKAROUND 0x0f000000u
#define FS_OPT_ERROR 0xf800008fu
/* Newer (>= 4.20) handshake. */
#define FS_NEW_MAGIC 0x41464c00u /* "AFL" + version byte */
#define FS_NEW_VERSION 1u
#define FS_NEW_ERROR 0xdeadbe00u
#define FS_NEW_OPT_MAPSIZE 0x1u
#define FS_NEW_OPT_SHDMEM_FUZZ 0x2u
#define FS_NEW_OPT_AUTODICT 0x800u

/* Control-word answers that should be immediate (pid after a fork, the
 * status after our SIGKILL) get this long before the forkserver counts as
 * broken. */
#define FSRV_CTL_MS 5000
/* A target's start-up (loading, constructors) before its hello may take
 * twice the run limit, and never less than this. */
#define FSRV_HELLO_MIN_MS 5000

/* Forkservers of this process not yet stopped (cmin runs several). */
static atomic_int live;

struct gb_fsrv {
    char **argv; /* deep copy: a restart needs it after the caller's is gone */
    char *input_path;
    int dir_fd;             /* the input file's directory, opened once */
    const char *input_name; /* its last component, inside input_path */
    unsigned timeout_ms, mem_limit_mb;
    int show_output;
    char **envp;
    char shm_env[40];
    char shm_input_env[48];
    int shm_id, shm_input_id;
    uint8_t *map;
    size_t map_size;
    uint8_t *shm_input; /* u32 length, then the bytes */
    int use_shm_input;  /* the running forkserver reads input from shm_input */
    int in_fd;          /* read-write: each input goes here without shm input */
    int stdin_fd;       /* read-only, the target's stdin, rewound before each run */
    int ctl_fd, st_fd;
    pid_t pid; /* the forkserver, 0 when not running */
    int last_timed_out;
};

static const char ASAN_DEFAULT[] = "ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0";

/* ---- pipe I/O ----------------------------------------------------------- */

/* Writes to a pipe whose reader may have died without raising SIGPIPE in
 * the host program: block it around the write, then drop the pending one. */
static int write_u32(int fd, uint32_t v)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w;
    do
        w = write(fd, &v, sizeof v);
    while (w < 0 && errno == EINTR);
    int err = errno;
    if (w < 0 && err == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return w == (ssize_t)sizeof v ? 0 : -1;
}

/* How a read from the forkserver ended. */
typedef enum fsrv_read {
    FSRV_READ_OK,
    FSRV_READ_TIMEOUT, /* nothing within the time limit: the child may still run */
    FSRV_READ_FAILED,  /* EOF or error: the forkserver is gone */
} fsrv_read_t;

/* Reads exactly n bytes. timeout_ms < 0 waits forever. */
static fsrv_read_t read_timed(int fd, void *buf, size_t n, int timeout_ms)
{
    uint8_t *p = buf;
    uint64_t deadline = gbb_now_us() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * 1000u;
    while (n > 0) {
        int wait = -1;
        if (timeout_ms >= 0) {
            uint64_t now = gbb_now_us();
            if (now >= deadline)
                return FSRV_READ_TIMEOUT;
            wait = (int)((deadline - now + 999) / 1000);
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, wait);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return FSRV_READ_FAILED;
        if (pr == 0)
            continue; /* the deadline check above decides */
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return FSRV_READ_FAILED;
        p += r;
        n -= (size_t)r;
    }
    return FSRV_READ_OK;
}

static fsrv_read_t read_u32(int fd, uint32_t *v, int timeout_ms)
{
    return read_timed(fd, v, sizeof *v, timeout_ms);
}

/* ---- process lifetime --------------------------------------------------- */

/* Kills the forkserver (and its child, same process group), reaps it and
 * describes how it ended into `how`. */
static void fsrv_kill(gb_fsrv_t *f, char *how, size_t how_len)
{
    if (f->pid <= 0)
        return;
    int status = 0;
    pid_t w = waitpid(f->pid, &status, WNOHANG);
    /* A target that closed our pipes by dying may not be reapable yet:
     * give it a moment, so a crash is reported as a crash. */
    for (int i = 0; i < 50 && w == 0 && how; i++) {
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
        w = waitpid(f->pid, &status, WNOHANG);
    }
    if (w == 0) {
        kill(-f->pid, SIGKILL);
        kill(f->pid, SIGKILL);
        while ((w = waitpid(f->pid, &status, 0)) < 0 && errno == EINTR)
            ;
        if (how)
            snprintf(how, how_len, "it did not answer and was killed");
    } else if (how && w == f->pid) {
        if (WIFEXITED(status))
            snprintf(how, how_len, "it exited with code %d", WEXITSTATUS(status));
        else
            snprintf(how, how_len, "it was killed by signal %d", WTERMSIG(status));
    } else if (how) {
        snprintf(how, how_len, "it is gone");
    }
    close(f->ctl_fd);
    close(f->st_fd);
    f->ctl_fd = f->st_fd = -1;
    f->pid = 0;
}

/* Child side of fsrv_spawn: pipe ends onto 198/199, every other inherited
 * descriptor closed, then exec. The exec report pipe goes to fd 200. */
static void fsrv_child(gb_fsrv_t *f, int ctl_rd, int st_wr, int err_wr)
{
    int err;
    if (gbb_child_setup(f->mem_limit_mb, f->show_output, f->stdin_fd) != 0)
        goto fail;
    /* Lift all three above 200 first so no dup2 below clobbers another. */
    int a = fcntl(ctl_rd, F_DUPFD, 201), b = fcntl(st_wr, F_DUPFD, 201);
    int c = fcntl(err_wr, F_DUPFD, 201);
    if (a < 0 || b < 0 || c < 0 || dup2(a, FSRV_CTL_FD) < 0 || dup2(b, FSRV_ST_FD) < 0 ||
        dup3(c, 200, O_CLOEXEC) < 0)
        goto fail;
    close_range(3, FSRV_CTL_FD - 1, 0);
    close_range(201, ~0u, 0);
    gbb_child_exec(f->argv, f->envp, 200);
fail:
    err = errno;
    if (write(err_wr, &err, sizeof err) < 0)
        _exit(127);
    _exit(127);
}

static const char *fsrv_error_text(uint32_t code)
{
    switch (code) {
    case 1: return "its coverage map is larger than the driver allows (set AFL_MAP_SIZE)";
    case 2: return "it could not place the map at the fixed address (AFL_LLVM_MAP_ADDR)";
    case 4: return "it could not open the shared memory";
    case 8: return "it could not attach the shared memory (shmat)";
    case 16: return "it could not mmap the map";
    case 32: return "it was built with an old cmplog instrumentation";
    case 64: return "old QEMU cmplog";
    default: return "unknown error";
    }
}

/* Reads and discards `len` bytes (an offered dictionary we do not use). */
static int skip_bytes(int fd, uint32_t len)
{
    uint8_t buf[4096];
    while (len > 0) {
        uint32_t n = len < sizeof buf ? len : (uint32_t)sizeof buf;
        if (read_timed(fd, buf, n, FSRV_CTL_MS) != FSRV_READ_OK)
            return -1;
        len -= n;
    }
    return 0;
}

/* The >= 4.20 handshake: magic echoed XOR 0xffffffff, options, their
 * parameters in option order, then the magic again. */
static int handshake_new(gb_fsrv_t *f, uint32_t hello, gb_err_t *e)
{
    const char *t = f->argv[0];
    uint32_t opts, v;
    if ((hello & 0xffu) != FS_NEW_VERSION)
        return gb_err_set(e, "%s speaks forkserver protocol version %u; this client knows %u", t,
                          hello & 0xffu, FS_NEW_VERSION);
    if (write_u32(f->ctl_fd, hello ^ 0xffffffffu) != 0 ||
        read_u32(f->st_fd, &opts, FSRV_CTL_MS) != FSRV_READ_OK)
        return gb_err_set(e, "%s: forkserver handshake broken off after the magic", t);
    f->map_size = FSRV_DEFAULT_MAP;
    if (opts & FS_NEW_OPT_MAPSIZE) {
        if (read_u32(f->st_fd, &v, FSRV_CTL_MS) != FSRV_READ_OK)
            return gb_err_set(e, "%s: forkserver handshake broken off (map size)", t);
        f->map_size = v;
    }
    /* Here the target has already attached __AFL_SHM_FUZZ_ID (always
     * exported) when it offers: the offer is a statement, not a question. */
    f->use_shm_input = (opts & FS_NEW_OPT_SHDMEM_FUZZ) != 0;
    if (opts & FS_NEW_OPT_AUTODICT) {
        if (read_u32(f->st_fd, &v, FSRV_CTL_MS) != FSRV_READ_OK || skip_bytes(f->st_fd, v) != 0)
            return gb_err_set(e, "%s: forkserver handshake broken off (dictionary)", t);
    }
    if (read_u32(f->st_fd, &v, FSRV_CTL_MS) != FSRV_READ_OK || v != hello)
        return gb_err_set(e, "%s: forkserver handshake did not end with the magic", t);
    return 0;
}

/* The 4.04c hello: options in the word; a reply only when the target
 * offers shm input or a dictionary. The dictionary is declined. Shm input is
 * accepted whenever offered: the runtime offers it only when the binary
 * reads its input through __afl_fuzz_ptr (libAFLDriver, or
 * __AFL_FUZZ_TESTCASE_BUF), and such a binary would otherwise read stdin,
 * never an @@ file (libAFLDriver given file arguments turns the offer off). */
static int handshake_old(gb_fsrv_t *f, uint32_t hello, gb_err_t *e)
{
    f->map_size = FSRV_DEFAULT_MAP;
    if ((hello & FS_OPT_ERROR) == FS_OPT_ERROR) {
        uint32_t code = (hello & 0x00ffff00u) >> 8;
        return gb_err_set(e, "%s reported a forkserver error %u: %s", f->argv[0], code,
                          fsrv_error_text(code));
    }
    if ((hello & FS_OPT_ENABLED) != FS_OPT_ENABLED)
        return 0; /* a plain AFL hello carries no options */
    if ((hello & FS_OPT_OLD_WORKAROUND) == FS_OPT_OLD_WORKAROUND)
        hello &= ~FS_OPT_OLD_WORKAROUND;
    if (hello & FS_OPT_MAPSIZE)
        f->map_size = ((hello & 0x00fffffeu) >> 1) + 1;
    f->use_shm_input = (hello & FS_OPT_SHDMEM_FUZZ) != 0;
    uint32_t reply = f->use_shm_input ? FS_OPT_ACCEPT_SHDMEM : FS_OPT_ENABLED;
    if ((hello & (FS_OPT_AUTODICT | FS_OPT_SHDMEM_FUZZ)) && write_u32(f->ctl_fd, reply) != 0)
        return gb_err_set(e, "%s: forkserver died during the handshake", f->argv[0]);
    return 0;
}

static int fsrv_handshake(gb_fsrv_t *f, gb_err_t *e)
{
    uint32_t hello;
    f->use_shm_input = 0;
    int hello_ms =
        f->timeout_ms * 2 > FSRV_HELLO_MIN_MS ? (int)(f->timeout_ms * 2) : FSRV_HELLO_MIN_MS;
    fsrv_read_t got = read_u32(f->st_fd, &hello, hello_ms);
    if (got != FSRV_READ_OK) {
        char how[128] = "";
        fsrv_kill(f, how, sizeof how);
        if (got == FSRV_READ_TIMEOUT)
            snprintf(how, sizeof how, "no hello within %d ms", hello_ms);
        if (strstr(how, "signal")) /* instrumented or not, it died first: say so */
            return gb_err_set(e, "%s crashed at startup, before its forkserver handshake (%s); "
                                 "run it by hand on a seed to see why",
                              f->argv[0], how);
        return gb_err_set(e, "%s is not instrumented for AFL++ (no forkserver handshake); %s",
                          f->argv[0], how);
    }
    int rc;
    if ((hello & 0xffffff00u) == FS_NEW_ERROR)
        rc = gb_err_set(e, "%s reported a forkserver error %u: %s", f->argv[0], hello & 0xffu,
                        fsrv_error_text(hello & 0xffu));
    else if ((hello & 0xffffff00u) == FS_NEW_MAGIC)
        rc = handshake_new(f, hello, e);
    else
        rc = handshake_old(f, hello, e);
    if (rc == 0 && (f->map_size == 0 || f->map_size > FSRV_SHM_BYTES))
        rc = gb_err_set(e, "%s announces a %zu-byte coverage map; at most %u is supported",
                        f->argv[0], f->map_size, FSRV_SHM_BYTES);
    if (rc != 0)
        fsrv_kill(f, NULL, 0);
    return rc;
}

/* Starts (or restarts) the forkserver process and completes the handshake. */
static int fsrv_spawn(gb_fsrv_t *f, gb_err_t *e)
{
    int ctl[2], st[2] = {-1, -1}, ep[2] = {-1, -1};
    if (pipe2(ctl, O_CLOEXEC) != 0)
        return gb_err_sys(e, "pipe2 for the forkserver");
    if (pipe2(st, O_CLOEXEC) != 0 || pipe2(ep, O_CLOEXEC) != 0) {
        gb_err_sys(e, "pipe2 for the forkserver");
        int all[] = {ctl[0], ctl[1], st[0], st[1]};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (all[i] >= 0)
                close(all[i]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0)
        fsrv_child(f, ctl[0], st[1], ep[1]);
    int fork_errno = errno;
    close(ctl[0]);
    close(st[1]);
    close(ep[1]);
    if (pid < 0) {
        close(ctl[1]);
        close(st[0]);
        close(ep[0]);
        errno = fork_errno;
        return gb_err_sys(e, "fork for %s", f->argv[0]);
    }
    int err = gbb_exec_report(ep[0]);
    close(ep[0]);
    f->pid = pid;
    f->ctl_fd = ctl[1];
    f->st_fd = st[0];
    f->last_timed_out = 0;
    if (err) {
        fsrv_kill(f, NULL, 0);
        errno = err;
        return gb_err_sys(e, "cannot execute %s", f->argv[0]);
    }
    return fsrv_handshake(f, e);
}

/* ---- setup ---------------------------------------------------------------- */

static int fsrv_copy_opts(gb_fsrv_t *f, const gb_fsrv_opts_t *o)
{
    size_t n = 0;
    while (o->argv[n])
        n++;
    f->argv = gb_calloc(n + 1, sizeof *f->argv);
    if (!f->argv)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(f->argv[i] = gb_strdup(o->argv[i])))
            return -1;
    f->input_path = gb_strdup(o->input_path);
    f->timeout_ms = o->timeout_ms ? o->timeout_ms : GB_RUN_TIMEOUT_MS;
    f->mem_limit_mb = o->mem_limit_mb;
    f->show_output = o->show_output;
    return f->input_path ? 0 : -1;
}

/* A private SysV segment of `bytes`, attached at *at; `what` names it in
 * errors. */
static int shm_create(size_t bytes, const char *what, int *id, uint8_t **at, gb_err_t *e)
{
    *id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | IPC_EXCL | 0600);
    if (*id < 0)
        return gb_err_sys(e, "shmget of %zu bytes for the %s", bytes, what);
    void *p = shmat(*id, NULL, 0);
    if (p == (void *)-1) {
        gb_err_sys(e, "shmat of the %s", what);
        shmctl(*id, IPC_RMID, NULL);
        return -1;
    }
    *at = p;
    /* Marked for removal at once: Linux still lets the target attach it, and
     * the segment cannot outlive us even if we are killed. */
    shmctl(*id, IPC_RMID, NULL);
    return 0;
}

/* Both segments exist before the target starts: the environment has to
 * name the input segment before we know whether the target will use it
 * (afl-fuzz exports it always too), and its pages cost nothing unused. */
static int fsrv_setup_shm(gb_fsrv_t *f, gb_err_t *e)
{
    if (shm_create(FSRV_SHM_BYTES, "coverage map", &f->shm_id, &f->map, e) != 0 ||
        shm_create(FSRV_SHM_INPUT_BYTES, "shared-memory input", &f->shm_input_id, &f->shm_input,
                   e) != 0)
        return -1;
    snprintf(f->shm_env, sizeof f->shm_env, "__AFL_SHM_ID=%d", f->shm_id);
    snprintf(f->shm_input_env, sizeof f->shm_input_env, "__AFL_SHM_FUZZ_ID=%d", f->shm_input_id);
    return 0;
}

/* A fresh input file, never written through what sits at its name: the
 * directory may be shared (OUT), so a symlink planted there (a resume
 * would have truncated its target) is removed, the link and not what it
 * points to, and a new regular file made with O_EXCL. */
static int input_create(gb_fsrv_t *f, gb_err_t *e)
{
    gb_err_t sub = {{0}};
    gb_file_remove_at(f->dir_fd, f->input_name);
    int fd = gb_file_open_at(f->dir_fd, f->input_name, GB_OPEN_NEW | GB_OPEN_READ, &sub);
    if (fd < 0)
        return gb_err_set(e, "cannot create input file %s: %s", f->input_path, sub.msg);
    return fd;
}

/* The input file again, read-only with an offset of its own (the target's
 * stdin): the same file as in_fd, checked by inode, never a FIFO. */
static int input_reopen(gb_fsrv_t *f, gb_err_t *e)
{
    int fd = openat(f->dir_fd, f->input_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat a, b;
    if (fd >= 0 && fstat(fd, &a) == 0 && fstat(f->in_fd, &b) == 0 && a.st_ino == b.st_ino &&
        a.st_dev == b.st_dev)
        return fd;
    if (fd >= 0)
        close(fd);
    return gb_err_set(e, "cannot open input file %s: it changed under us", f->input_path);
}

static int fsrv_setup_files(gb_fsrv_t *f, gb_err_t *e)
{
    char dir[PATH_MAX];
    f->input_name = gb_path_split(f->input_path, dir, sizeof dir, e);
    if (!f->input_name || (f->dir_fd = gb_dir_open(dir, NULL, 0, e)) < 0 ||
        (f->in_fd = input_create(f, e)) < 0)
        return -1;
    /* Targets that read stdin (libAFLDriver when shm input is declined) get
     * the same file there. */
    if ((f->stdin_fd = input_reopen(f, e)) < 0)
        return -1;
    int persistent = gb_binary_has_marker(f->argv[0], FSRV_PERSIST_SIG, e);
    if (persistent < 0)
        return -1;
    int deferred = gb_binary_has_marker(f->argv[0], FSRV_DEFER_SIG, e);
    if (deferred < 0)
        return -1;
    char *extra[6] = {f->shm_env, f->shm_input_env, NULL, NULL, NULL, NULL};
    size_t k = 2;
    if (!getenv("ASAN_OPTIONS"))
        extra[k++] = (char *)ASAN_DEFAULT;
    /* Persistent mode needs nothing else from us: a child that stops
     * itself after an input is reported as stopped (an OK run), and the
     * forkserver resumes it for the next one; a timeout kill reaches it
     * like any child and is reported with the next control word. */
    if (persistent)
        extra[k++] = "__AFL_PERSISTENT=1";
    if (deferred)
        extra[k++] = "__AFL_DEFER_FORKSRV=1";
    f->envp = gbb_env_build(extra);
    gbb_subreaper();
    if (!f->envp)
        return gb_err_set(e, "out of memory starting %s", f->argv[0]);
    return 0;
}

int gb_fsrv_start(const gb_fsrv_opts_t *opts, gb_fsrv_t **out, gb_err_t *e)
{
    *out = NULL;
    if (!opts || !opts->argv || !opts->argv[0] || !opts->input_path)
        return gb_err_set(e, "gb_fsrv_start: argv and input_path are required");
    if (gb_check_executable(opts->argv[0], e) != 0)
        return -1;
    gb_fsrv_t *f = gb_calloc(1, sizeof *f);
    if (!f)
        return gb_err_set(e, "out of memory starting %s", opts->argv[0]);
    f->shm_id = f->shm_input_id = -1;
    f->in_fd = f->stdin_fd = f->ctl_fd = f->st_fd = f->dir_fd = -1;
    atomic_fetch_add(&live, 1);
    if (fsrv_copy_opts(f, opts) != 0) {
        gb_fsrv_stop(f);
        return gb_err_set(e, "out of memory starting %s", opts->argv[0]);
    }
    if (fsrv_setup_shm(f, e) != 0 || fsrv_setup_files(f, e) != 0 || fsrv_spawn(f, e) != 0) {
        gb_fsrv_stop(f);
        return -1;
    }
    *out = f;
    return 0;
}

void gb_fsrv_stop(gb_fsrv_t *f)
{
    if (!f)
        return;
    fsrv_kill(f, NULL, 0);
    /* The last one of the process: what every target left is killed. Not
     * before: cmin's other workers' forkservers carry the same mark. */
    if (atomic_fetch_sub(&live, 1) == 1)
        gb_targets_reap();
    if (f->map)
        shmdt(f->map);
    if (f->shm_input)
        shmdt(f->shm_input);
    if (f->in_fd >= 0)
        close(f->in_fd);
    if (f->stdin_fd >= 0)
        close(f->stdin_fd);
    if (f->dir_fd >= 0)
        close(f->dir_fd);
    for (size_t i = 0; f->argv && f->argv[i]; i++)
        gb_free(f->argv[i]);
    gb_free(f->argv);
    gb_free(f->input_path);
    gb_free(f->envp);
    gb_free(f);
}

/* ---- runs ----------------------------------------------------------------- */

/* A target may delete or replace its input file (an @@ program that
 * unlinks what it read): the file is made again at its path, or every
 * later run would read nothing. The forkserver's stdin keeps the old
 * file; a target that reads stdin and deletes the file is not helped. */
static int keep_input_file(gb_fsrv_t *f, gb_err_t *e)
{
    struct stat at, open_now;
    if (fstatat(f->dir_fd, f->input_name, &at, AT_SYMLINK_NOFOLLOW) == 0 &&
        fstat(f->in_fd, &open_now) == 0 && at.st_ino == open_now.st_ino &&
        at.st_dev == open_now.st_dev)
        return 0;
    int fd = input_create(f, e);
    if (fd < 0)
        return -1;
    close(f->in_fd);
    f->in_fd = fd;
    return 0;
}

static int write_input(gb_fsrv_t *f, const uint8_t *in, size_t len, gb_err_t *e)
{
    if (f->use_shm_input) {
        /* Longer inputs are cut as afl-fuzz cuts them for the same target. */
        uint32_t n = len > FSRV_SHM_INPUT_MAX ? FSRV_SHM_INPUT_MAX : (uint32_t)len;
        if (n > 0)
            memcpy(f->shm_input + sizeof n, in, n);
        memcpy(f->shm_input, &n, sizeof n);
        return 0;
    }
    if (keep_input_file(f, e) != 0)
        return -1;
    size_t off = 0;
    while (off < len) {
        ssize_t w = pwrite(f->in_fd, in + off, len - off, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return gb_err_sys(e, "cannot write input file %s", f->input_path);
        off += (size_t)w;
    }
    if (ftruncate(f->in_fd, (off_t)len) != 0 || lseek(f->stdin_fd, 0, SEEK_SET) != 0)
        return gb_err_sys(e, "cannot write input file %s", f->input_path);
    return 0;
}

static int fsrv_died(gb_fsrv_t *f, const char *when, gb_err_t *e)
{
    char how[128] = "";
    fsrv_kill(f, how, sizeof how);
    return gb_err_set(e, "forkserver of %s died %s (%s); the next run restarts it", f->argv[0],
                      when, how);
}

int gb_fsrv_run(gb_fsrv_t *f, const uint8_t *input, size_t len, gb_run_result_t *r, gb_err_t *e)
{
    memset(r, 0, sizeof *r);
    r->status = GB_RUN_ERROR;
    if (!f)
        return gb_err_set(e, "gb_fsrv_run: no forkserver");
    if (f->pid <= 0 && fsrv_spawn(f, e) != 0)
        return -1;
    if (write_input(f, input, len, e) != 0)
        return -1;
    memset(f->map, 0, f->map_size);

    uint64_t t0 = gbb_now_us();
    uint32_t child, status;
    if (write_u32(f->ctl_fd, f->last_timed_out ? 1u : 0u) != 0)
        return fsrv_died(f, "before the run", e);
    if (read_u32(f->st_fd, &child, (int)f->timeout_ms + FSRV_CTL_MS) != FSRV_READ_OK)
        return fsrv_died(f, "while forking", e);
    if ((int32_t)child <= 0)
        return fsrv_died(f, "(it sent no child pid)", e);

    uint64_t spent_ms = (gbb_now_us() - t0) / 1000u;
    int left = spent_ms >= f->timeout_ms ? 0 : (int)(f->timeout_ms - spent_ms);
    fsrv_read_t got = read_u32(f->st_fd, &status, left);
    int timed_out = 0;
    if (got == FSRV_READ_TIMEOUT) {
        kill((pid_t)child, SIGKILL);
        timed_out = 1;
        got = read_u32(f->st_fd, &status, FSRV_CTL_MS);
    }
    r->time_us = gbb_now_us() - t0;
    if (got != FSRV_READ_OK)
        return fsrv_died(f, "during the run", e);
    f->last_timed_out = timed_out;
    gb_bridge_classify((int)status, timed_out, r);
    return 0;
}

const uint8_t *gb_fsrv_map(const gb_fsrv_t *f) { return f->map; }

size_t gb_fsrv_map_size(const gb_fsrv_t *f) { return f->map_size; }
