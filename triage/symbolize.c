/* SPDX-License-Identifier: Apache-2.0 */
/* Frames from module+offset to function and file:line through one
 * long-lived llvm-symbolizer: starting it costs tens of milliseconds and
 * loading a binary's debug info more, which tmin's thousands of probes
 * must not pay each time. Answers are cached per (module, offset). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "triage.h"

/* Cache slots (direct-mapped: a clash just asks the symbolizer again). */
#define CACHE_SLOTS 4096
/* Inlined frames kept for one address. */
#define MAX_INLINE 16
/* The largest answer read for one address. */
#define ANSWER_MAX (64u << 10)

typedef struct answer {
    uint64_t key; /* 0 = empty */
    char *module; /* to tell clashing keys apart */
    uint64_t offset;
    gb_frame_t *frames;
    size_t n;
} answer_t;

struct gb_symbolizer {
    pid_t pid; /* 0 once it died or was dropped */
    int fd;    /* our end of the socket pair: its stdin and stdout */
    answer_t *cache;
    char *buf; /* ANSWER_MAX + 1 */
};

static int exec_symbolizer(gb_symbolizer_t *s, const char *path, gb_err_t *e)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return gb_err_sys(e, "socketpair for llvm-symbolizer");
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return gb_err_sys(e, "fork for llvm-symbolizer");
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY); /* gb-write-ok: a sink */
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 || (nul >= 0 && dup2(nul, 2) < 0))
            _exit(127);
        /* Its own process group: a Ctrl-C meant for us need not reach it
         * first, and we kill it by pid. */
        setpgid(0, 0);
        char *argv[] = {(char *)path, "--inlining", "--demangle", "--output-style=LLVM", NULL};
        if (strchr(path, '/'))
            execv(path, argv);
        else
            execvp(path, argv);
        _exit(127);
    }
    close(sv[1]);
    s->pid = pid;
    s->fd = sv[0];
    return 0;
}

static void drop(gb_symbolizer_t *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (s->fd >= 0)
        close(s->fd);
    s->pid = 0;
    s->fd = -1;
}

/* Sends one request line; 0 or -1 (then the symbolizer is dropped). */
static int send_all(gb_symbolizer_t *s, const char *line, size_t n)
{
    while (n > 0) {
        ssize_t w = send(s->fd, line, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            drop(s);
            return -1;
        }
        line += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads one answer (up to its blank line) into s->buf; its length, or -1
 * (the symbolizer died, hung or talked too much: dropped). */
static long read_answer(gb_symbolizer_t *s)
{
    size_t have = 0;
    uint64_t deadline = gb_mono_ms() + GB_SYMBOLIZER_TIMEOUT_MS;
    for (;;) {
        if (have >= 2 && s->buf[have - 1] == '\n' && s->buf[have - 2] == '\n')
            return (long)have;
        if (have == 1 && s->buf[0] == '\n')
            return 1;
        uint64_t now = gb_mono_ms();
        struct pollfd p = {s->fd, POLLIN, 0};
        int left = now < deadline ? (int)(deadline - now) : 0;
        int pr = left > 0 ? poll(&p, 1, left) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0 || have >= ANSWER_MAX)
            break;
        ssize_t r = recv(s->fd, s->buf + have, ANSWER_MAX - have, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    drop(s);
    return -1;
}

int gb_symbolizer_new(const char *path, gb_symbolizer_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_symbolizer_t *s = gb_calloc(1, sizeof *s);
    if (!s || !(s->cache = gb_calloc(CACHE_SLOTS, sizeof *s->cache)) ||
        !(s->buf = gb_malloc(ANSWER_MAX + 1))) {
        gb_symbolizer_free(s);
        return gb_err_set(e, "out of memory starting llvm-symbolizer");
    }
    s->fd = -1;
    const char *cands[] = {path, "llvm-symbolizer", "llvm-symbolizer-14"};
    for (size_t i = path ? 0 : 1; i < 3 && s->pid == 0; i++) {
        if (exec_symbolizer(s, cands[i], e) != 0)
            break;
        /* A probe tells a running symbolizer from a failed exec. */
        static const char probe[] = "\"/nonexistent-glassbox-probe\" 0x0\n";
        if (send_all(s, probe, sizeof probe - 1) != 0 || read_answer(s) < 0)
            drop(s);
        if (path)
            break;
    }
    if (s->pid == 0) {
        gb_symbolizer_free(s);
        return gb_err_set(e, "no llvm-symbolizer runs (%s): frames stay module+offset",
                          path ? path : "llvm-symbolizer, llvm-symbolizer-14 on PATH");
    }
    *out = s;
    return 0;
}

static void answer_clear(answer_t *a)
{
    gb_free(a->module);
    gb_free(a->frames);
    memset(a, 0, sizeof *a);
}

void gb_symbolizer_free(gb_symbolizer_t *s)
{
    if (!s)
        return;
    drop(s);
    for (size_t i = 0; s->cache && i < CACHE_SLOTS; i++)
        answer_clear(&s->cache[i]);
    gb_free(s->cache);
    gb_free(s->buf);
    gb_free(s);
}

/* Splits the answer in s->buf into frames ("FUNC\nFILE:LINE:COL\n" pairs,
 * innermost first). 0 frames when it knows nothing. */
static size_t parse_answer(char *buf, size_t len, const gb_frame_t *orig, gb_frame_t *fr)
{
    size_t n = 0;
    buf[len] = '\0';
    char *save = NULL;
    for (char *func = strtok_r(buf, "\n", &save); func && n < MAX_INLINE;
         func = strtok_r(NULL, "\n", &save)) {
        char *loc = strtok_r(NULL, "\n", &save);
        if (!loc)
            break;
        gb_frame_t *f = &fr[n];
        *f = *orig;
        if (strcmp(func, "??") != 0)
            snprintf(f->func, sizeof f->func, "%s", func);
        /* "FILE:LINE:COL", "??:0:0" */
        char *c2 = strrchr(loc, ':');
        if (c2) {
            *c2 = '\0';
            char *c1 = strrchr(loc, ':');
            if (c1) {
                *c1 = '\0';
                f->line = (unsigned)strtoul(c1 + 1, NULL, 10);
            } else {
                f->line = (unsigned)strtoul(c2 + 1, NULL, 10);
            }
        }
        if (strcmp(loc, "??") != 0)
            snprintf(f->file, sizeof f->file, "%s", loc);
        if (f->func[0] || f->file[0])
            n++;
    }
    return n;
}

/* The cached or freshly asked answer for one frame; NULL when unknown. */
static const answer_t *lookup(gb_symbolizer_t *s, const gb_frame_t *f)
{
    uint64_t key = gb_hash64(f->module, strlen(f->module), f->offset) | 1;
    answer_t *a = &s->cache[key % CACHE_SLOTS];
    if (a->key == key && a->offset == f->offset && strcmp(a->module, f->module) == 0)
        return a->n ? a : NULL; /* an address it knows nothing of is cached too */
    if (s->pid == 0 || strpbrk(f->module, "\"\n\r"))
        return NULL;
    char req[sizeof f->module + 40];
    int rn = snprintf(req, sizeof req, "\"%s\" 0x%llx\n", f->module, (unsigned long long)f->offset);
    if (rn <= 0 || (size_t)rn >= sizeof req || send_all(s, req, (size_t)rn) != 0)
        return NULL;
    long len = read_answer(s);
    if (len < 0)
        return NULL;
    gb_frame_t fr[MAX_INLINE];
    size_t n = parse_answer(s->buf, (size_t)len, f, fr);
    answer_clear(a);
    if (!(a->module = gb_strdup(f->module)) || (n && !(a->frames = gb_malloc(n * sizeof *fr)))) {
        answer_clear(a);
        return NULL;
    }
    if (n)
        memcpy(a->frames, fr, n * sizeof *fr);
    a->n = n;
    a->key = key;
    a->offset = f->offset;
    return n ? a : NULL;
}

int gb_symbolize_frames(gb_symbolizer_t *s, gb_frame_t **frames, size_t *n, gb_err_t *e)
{
    if (!s || *n == 0)
        return 0;
    gb_frame_t *in = *frames, *out = NULL;
    size_t nout = 0, cap = 0;
    for (size_t i = 0; i < *n && nout < GB_CRASH_MAX_FRAMES; i++) {
        const answer_t *a = NULL;
        if (!in[i].func[0] && in[i].module[0] && strcmp(in[i].module, "<unknown module>") != 0)
            a = lookup(s, &in[i]);
        size_t k = a ? a->n : 1;
        if (gb_grow(&out, &cap, nout + k, sizeof *out, 32) != 0) {
            gb_free(out);
            return gb_err_set(e, "out of memory symbolizing a stack");
        }
        memcpy(out + nout, a ? a->frames : &in[i], k * sizeof *out);
        nout += k;
    }
    gb_free(in);
    *frames = out;
    *n = nout;
    return 0;
}
