/* SPDX-License-Identifier: Apache-2.0 */
/* Input sources for whole programs: models of the file and stdio calls a
 * program uses to read the file named by GLASSBOX_INPUT. The real call
 * always does the work; the model then gives the bytes that came from the
 * input file at offset k the shadow INPUT(k) (docs/tracer.md, "Input
 * sources"). The file is recognised by (st_dev, st_ino) on every call and
 * its offset is asked of the kernel or of stdio (lseek/ftell), so the
 * models keep no per-descriptor state that dup, fork or uninstrumented
 * code could make stale. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open64, pread64, preadv64, O_TMPFILE */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "gb_abi.h"
#include "io_int.h"

extern __thread void *__gb_ret;
extern __thread void *__gb_params[];
extern __thread void *__gb_callee;

RT_EXPORT int __gb_model_open(const char *path, int flags, ...);
RT_EXPORT int __gb_model_open64(const char *path, int flags, ...);
RT_EXPORT int __gb_model_openat(int dir, const char *path, int flags, ...);
RT_EXPORT int __gb_model_openat64(int dir, const char *path, int flags, ...);
RT_EXPORT ssize_t __gb_model_read(int fd, void *buf, size_t n);
RT_EXPORT ssize_t __gb_model_pread(int fd, void *buf, size_t n, off_t off);
RT_EXPORT ssize_t __gb_model_pread64(int fd, void *buf, size_t n, off64_t off);
RT_EXPORT ssize_t __gb_model_readv(int fd, const struct iovec *iov, int cnt);
RT_EXPORT ssize_t __gb_model_preadv(int fd, const struct iovec *iov, int cnt, off_t off);
RT_EXPORT ssize_t __gb_model_preadv64(int fd, const struct iovec *iov, int cnt, off64_t off);
RT_EXPORT off_t __gb_model_lseek(int fd, off_t off, int whence);
RT_EXPORT off64_t __gb_model_lseek64(int fd, off64_t off, int whence);
RT_EXPORT void *__gb_model_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
RT_EXPORT void *__gb_model_mmap64(void *addr, size_t len, int prot, int flags, int fd,
                                  off64_t off);
RT_EXPORT int __gb_model_munmap(void *addr, size_t len);
RT_EXPORT FILE *__gb_model_fopen(const char *path, const char *mode);
RT_EXPORT FILE *__gb_model_fopen64(const char *path, const char *mode);
RT_EXPORT size_t __gb_model_fread(void *buf, size_t size, size_t n, FILE *f);
RT_EXPORT size_t __gb_model_fread_unlocked(void *buf, size_t size, size_t n, FILE *f);
RT_EXPORT size_t __gb_model___fread_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f);
RT_EXPORT size_t __gb_model___fread_unlocked_chk(void *buf, size_t cap, size_t size, size_t n,
                                                 FILE *f);
RT_EXPORT int __gb_model_fseek(FILE *f, long off, int whence);
RT_EXPORT int __gb_model_fseeko(FILE *f, off_t off, int whence);
RT_EXPORT int __gb_model_fseeko64(FILE *f, off64_t off, int whence);
RT_EXPORT int __gb_model_getc(FILE *f);
RT_EXPORT int __gb_model_fgetc(FILE *f);
RT_EXPORT int __gb_model__IO_getc(FILE *f);
RT_EXPORT int __gb_model_getchar(void);
RT_EXPORT int __gb_model_getc_unlocked(FILE *f);
RT_EXPORT int __gb_model_fgetc_unlocked(FILE *f);
RT_EXPORT int __gb_model_getchar_unlocked(void);
RT_EXPORT int __gb_model___uflow(FILE *f);
RT_EXPORT char *__gb_model___fgets_chk(char *s, size_t size, int n, FILE *f);
RT_EXPORT ssize_t __gb_model___read_chk(int fd, void *buf, size_t n, size_t size);
RT_EXPORT char *__gb_model_fgets(char *s, int n, FILE *f);
RT_EXPORT ssize_t __gb_model_getline(char **line, size_t *cap, FILE *f);
RT_EXPORT ssize_t __gb_model_getdelim(char **line, size_t *cap, int delim, FILE *f);
RT_EXPORT ssize_t __gb_model___getdelim(char **line, size_t *cap, int delim, FILE *f);
RT_EXPORT long __gb_model_ftell(FILE *f);
RT_EXPORT off_t __gb_model_ftello(FILE *f);
RT_EXPORT off64_t __gb_model_ftello64(FILE *f);
RT_EXPORT int __gb_model_fstat(int fd, struct stat *st);
RT_EXPORT int __gb_model_fstat64(int fd, struct stat64 *st);
RT_EXPORT int __gb_model_stat(const char *path, struct stat *st);
RT_EXPORT int __gb_model_stat64(const char *path, struct stat64 *st);
RT_EXPORT int __gb_model_lstat(const char *path, struct stat *st);
RT_EXPORT int __gb_model_lstat64(const char *path, struct stat64 *st);

/* Synthetic site ids for the conditions the models record (the real libc
 * code that decides them is not instrumented). Fixed, so that runs agree. */
#define SITE_IO_PIN 0x9b100000u
#define SITE_FGETS_NL 0x9b110000u

/* The input file, looked up once: identity and bytes as they were when
 * the program first touched it. */
static struct {
    int state; /* 0 = not looked up, 1 = have it, -1 = no input file */
    dev_t dev;
    ino_t ino;
    uint8_t *data;
    size_t len;
} in;

static void load_input(void)
{
    const char *path = getenv(GB_ENV_INPUT);
    in.state = -1;
    struct stat st;
    if (!rt_active && !getenv(GB_ENV_TRACE_OUT))
        return; /* not tracing: every model is a plain call */
    if (!path || !*path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t cap = (size_t)st.st_size, n = 0;
    uint8_t *d = malloc(cap ? cap : 1);
    while (d && n < cap) {
        ssize_t r = read(fd, d + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (!d)
        return;
    in.dev = st.st_dev;
    in.ino = st.st_ino;
    in.data = d;
    in.len = n;
    in.state = 1;
}

/* Opens the trace the first time the input file is seen, unless the
 * libFuzzer driver already did (__gb_input). */
static void start_trace(void)
{
    if (rt_active)
        return;
    rt_init();
    const char *path = getenv(GB_ENV_TRACE_OUT);
    if (path && *path && rt_out_open(path, in.data, in.len) == 0) {
        rt_active = 1;
        rt.input_len = in.len; /* the length variable's value on this run */
    }
}

RT_HIDDEN int io_is_input_fd(int fd)
{
    if (in.state == 0)
        load_input();
    if (in.state < 0 || fd < 0)
        return 0;
    int saved = errno;
    struct stat st;
    int yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == in.dev &&
              st.st_ino == in.ino;
    errno = saved;
    if (yes)
        start_trace();
    return yes && rt_active;
}

/* Like io_is_input_fd, for what stat() returned. */
static int io_stat_is_input(dev_t dev, ino_t ino)
{
    if (in.state == 0)
        load_input();
    if (in.state < 0 || dev != in.dev || ino != in.ino)
        return 0;
    start_trace();
    return rt_active;
}

RT_HIDDEN int64_t io_stream_pos(FILE *f)
{
    if (!f || !io_is_input_fd(fileno(f)))
        return -1;
    int saved = errno;
    long pos = ftell(f);
    errno = saved;
    return pos;
}

RT_HIDDEN const uint8_t *io_input_bytes(size_t *len)
{
    *len = in.state > 0 ? in.len : 0;
    return in.data;
}

RT_HIDDEN rt_expr_t *io_byte(int64_t off)
{
    return off >= 0 && (uint64_t)off < in.len ? rt_input((uint64_t)off) : NULL;
}

/* n bytes at `buf` now hold the file's bytes from `off` (off < 0: not the
 * input): give them their INPUT shadows; anything else read is concrete. */
RT_HIDDEN void io_mark(void *buf, size_t n, int64_t off)
{
    if (!rt_active || n == 0)
        return;
    if (off < 0) {
        rt_shadow_clear((uintptr_t)buf, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        rt_shadow_set((uintptr_t)buf + i, io_byte(off + (int64_t)i));
}

RT_HIDDEN void io_branch(rt_expr_t *cond, int taken, uint32_t site)
{
    if (cond && cond->op != GBT_OP_CONST)
        __gb_branch(cond, (uint64_t)(taken != 0), site);
}

/* ---- the input's length ------------------------------------------------
 * With the length variable L (rt_input_len), results that depend on where
 * the file ends are expressions over L, so the search can ask for a longer
 * or shorter file. Each is set only when it agrees with the concrete result. */

/* min(L - pos, n), 0 when L <= pos: bytes a read of n at pos gets. */
static rt_expr_t *len_count(int64_t pos, uint64_t n, uint64_t concrete)
{
    rt_expr_t *L = rt_input_len();
    if (!L || pos < 0 || (uint64_t)pos > in.len)
        return NULL;
    uint64_t left = in.len - (uint64_t)pos;
    if (concrete != (left < n ? left : n))
        return NULL;
    rt_expr_t *p = rt_const(64, (uint64_t)pos), *rest = rt_binop(GBT_OP_SUB, L, p);
    rt_expr_t *cut = rt_ite(rt_binop(GBT_OP_ULT, rest, rt_const(64, n)), rest, rt_const(64, n));
    return rt_ite(rt_binop(GBT_OP_ULE, L, p), rt_const(64, 0), cut);
}

/* L + off, if that is the concrete offset `r` (SEEK_END). */
static rt_expr_t *len_plus(int64_t off, int64_t r)
{
    rt_expr_t *L = rt_input_len();
    if (!L || r != (int64_t)in.len + off)
        return NULL;
    return rt_binop(GBT_OP_ADD, L, rt_const(64, (uint64_t)off));
}

/* A symbolic offset or size handed to libc is used concretely: the pin
 * keeps the solver from changing it while the bytes it chose stay put. */
static void pin_param(const void *self, unsigned i, uint64_t value)
{
    rt_expr_t *s = __gb_callee == self && rt_active ? (rt_expr_t *)__gb_params[i] : NULL;
    __gb_callee = NULL;
    if (s)
        rt_pin(s, value, SITE_IO_PIN + i);
}

/* ---- descriptors ------------------------------------------------------ */

static int opened(int fd)
{
    __gb_ret = NULL;
    if (fd >= 0)
        io_is_input_fd(fd); /* starts the trace at the input's open */
    return fd;
}

/* open(2)'s mode argument is there only when the flags create a file. */
#define MODE_FROM(flags, last, mode)                                                              \
    do {                                                                                          \
        if ((flags) & (O_CREAT | O_TMPFILE)) {                                                    \
            va_list ap;                                                                           \
            va_start(ap, last);                                                                   \
            mode = (mode_t)va_arg(ap, int);                                                       \
            va_end(ap);                                                                           \
        }                                                                                         \
    } while (0)

RT_EXPORT int __gb_model_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_FROM(flags, flags, mode);
    return opened(open(path, flags, mode));
}

RT_EXPORT int __gb_model_open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_FROM(flags, flags, mode);
    return opened(open64(path, flags, mode));
}

RT_EXPORT int __gb_model_openat(int dir, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_FROM(flags, flags, mode);
    return opened(openat(dir, path, flags, mode));
}

RT_EXPORT int __gb_model_openat64(int dir, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_FROM(flags, flags, mode);
    return opened(openat64(dir, path, flags, mode));
}

/* The descriptor's offset if it is the input file, else -1. */
static int64_t fd_pos(int fd)
{
    if (!io_is_input_fd(fd))
        return -1;
    int saved = errno;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    errno = saved;
    return pos;
}

RT_EXPORT ssize_t __gb_model_read(int fd, void *buf, size_t n)
{
    __gb_callee = NULL;
    int64_t pos = fd_pos(fd);
    ssize_t r = read(fd, buf, n);
    if (r > 0)
        io_mark(buf, (size_t)r, pos);
    __gb_ret = r >= 0 ? len_count(pos, n, (uint64_t)r) : NULL;
    return r;
}

/* _FORTIFY_SOURCE's checked read. */
extern ssize_t __read_chk(int fd, void *buf, size_t n, size_t size);

RT_EXPORT ssize_t __gb_model___read_chk(int fd, void *buf, size_t n, size_t size)
{
    return n <= size ? __gb_model_read(fd, buf, n) : __read_chk(fd, buf, n, size);
}

RT_EXPORT ssize_t __gb_model_pread(int fd, void *buf, size_t n, off_t off)
{
    pin_param((const void *)__gb_model_pread, 3, (uint64_t)off);
    int is = io_is_input_fd(fd);
    ssize_t r = pread(fd, buf, n, off);
    if (r > 0)
        io_mark(buf, (size_t)r, is ? off : -1);
    __gb_ret = is && r >= 0 ? len_count(off, n, (uint64_t)r) : NULL;
    return r;
}

RT_EXPORT ssize_t __gb_model_pread64(int fd, void *buf, size_t n, off64_t off)
{
    pin_param((const void *)__gb_model_pread64, 3, (uint64_t)off);
    int is = io_is_input_fd(fd);
    ssize_t r = pread64(fd, buf, n, off);
    if (r > 0)
        io_mark(buf, (size_t)r, is ? off : -1);
    __gb_ret = is && r >= 0 ? len_count(off, n, (uint64_t)r) : NULL;
    return r;
}

/* The scattering reads fill the buffers in order: the first r bytes read
 * from pos (-1: not the input) spread over iov. */
static void mark_iov(const struct iovec *iov, int cnt, size_t r, int64_t pos)
{
    for (int i = 0; i < cnt && r > 0; i++) {
        size_t k = iov[i].iov_len < r ? iov[i].iov_len : r;
        io_mark(iov[i].iov_base, k, pos);
        pos = pos < 0 ? -1 : pos + (int64_t)k;
        r -= k;
    }
}

/* What a scattering read asks for (the kernel refuses more than SSIZE_MAX). */
static uint64_t iov_total(const struct iovec *iov, int cnt)
{
    uint64_t n = 0;
    for (int i = 0; i < cnt; i++)
        n += iov[i].iov_len;
    return n;
}

/* A scattering read of r bytes from pos; its count follows L as read's. */
static ssize_t scattered(const struct iovec *iov, int cnt, int64_t pos, ssize_t r)
{
    __gb_ret = NULL;
    if (r > 0)
        mark_iov(iov, cnt, (size_t)r, pos);
    if (r >= 0 && pos >= 0)
        __gb_ret = len_count(pos, iov_total(iov, cnt), (uint64_t)r);
    return r;
}

RT_EXPORT ssize_t __gb_model_readv(int fd, const struct iovec *iov, int cnt)
{
    __gb_callee = NULL;
    int64_t pos = fd_pos(fd);
    return scattered(iov, cnt, pos, readv(fd, iov, cnt));
}

RT_EXPORT ssize_t __gb_model_preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
    pin_param((const void *)__gb_model_preadv, 3, (uint64_t)off);
    int is = io_is_input_fd(fd);
    return scattered(iov, cnt, is ? off : -1, preadv(fd, iov, cnt, off));
}

RT_EXPORT ssize_t __gb_model_preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    pin_param((const void *)__gb_model_preadv64, 3, (uint64_t)off);
    int is = io_is_input_fd(fd);
    return scattered(iov, cnt, is ? off : -1, preadv64(fd, iov, cnt, off));
}

RT_EXPORT off_t __gb_model_lseek(int fd, off_t off, int whence)
{
    pin_param((const void *)__gb_model_lseek, 1, (uint64_t)off);
    off_t r = lseek(fd, off, whence);
    __gb_ret = whence == SEEK_END && r >= 0 && io_is_input_fd(fd) ? len_plus(off, r) : NULL;
    return r;
}

RT_EXPORT off64_t __gb_model_lseek64(int fd, off64_t off, int whence)
{
    pin_param((const void *)__gb_model_lseek64, 1, (uint64_t)off);
    off64_t r = lseek64(fd, off, whence);
    __gb_ret = whence == SEEK_END && r >= 0 && io_is_input_fd(fd) ? len_plus(off, r) : NULL;
    return r;
}

/* A fresh mapping: stale shadows at its addresses go; the part backed by
 * the input file gets INPUT shadows (past the file's end: zero pages). */
static void *mapped(void *p, size_t len, int flags, int fd, int64_t off)
{
    __gb_ret = NULL;
    if (p == MAP_FAILED || !rt_active)
        return p;
    rt_shadow_clear((uintptr_t)p, len);
    if (!(flags & MAP_ANONYMOUS) && off >= 0 && io_is_input_fd(fd) && (uint64_t)off < in.len) {
        size_t n = in.len - (size_t)off;
        io_mark(p, n < len ? n : len, off);
    }
    return p;
}

RT_EXPORT void *__gb_model_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    pin_param((const void *)__gb_model_mmap, 5, (uint64_t)off);
    if (!(flags & MAP_ANONYMOUS))
        io_is_input_fd(fd); /* the trace must be open before `mapped` looks */
    return mapped(mmap(addr, len, prot, flags, fd, off), len, flags, fd, off);
}

RT_EXPORT void *__gb_model_mmap64(void *addr, size_t len, int prot, int flags, int fd,
                                  off64_t off)
{
    pin_param((const void *)__gb_model_mmap64, 5, (uint64_t)off);
    if (!(flags & MAP_ANONYMOUS))
        io_is_input_fd(fd);
    return mapped(mmap64(addr, len, prot, flags, fd, off), len, flags, fd, off);
}

RT_EXPORT int __gb_model_munmap(void *addr, size_t len)
{
    int r = munmap(addr, len);
    if (r == 0 && rt_active)
        rt_shadow_clear((uintptr_t)addr, len);
    __gb_ret = NULL;
    return r;
}

/* ---- stdio ------------------------------------------------------------- */

static FILE *fopened(FILE *f)
{
    __gb_ret = NULL;
    if (f)
        io_is_input_fd(fileno(f));
    return f;
}

RT_EXPORT FILE *__gb_model_fopen(const char *path, const char *mode)
{
    return fopened(fopen(path, mode));
}

RT_EXPORT FILE *__gb_model_fopen64(const char *path, const char *mode)
{
    return fopened(fopen64(path, mode));
}

/* fread returned r elements of `size` read from stream offset pos. */
static size_t freaded(void *buf, size_t size, size_t n, FILE *f, int64_t pos, size_t r)
{
    size_t got = r * size;
    if (pos >= 0) { /* a short read leaves a partial element in buf too */
        int64_t end = io_stream_pos(f);
        if (end > pos && (uint64_t)(end - pos) <= size * n)
            got = (size_t)(end - pos);
    }
    io_mark(buf, got, pos);
    __gb_ret = NULL;
    if (size > 0 && size * n / size == n) { /* elements = bytes got / size */
        rt_expr_t *bytes = len_count(pos, size * n, got);
        __gb_ret = bytes && r == got / size
                       ? rt_binop(GBT_OP_UDIV, bytes, rt_const(64, size)) : NULL;
    }
    return r;
}

RT_EXPORT size_t __gb_model_fread(void *buf, size_t size, size_t n, FILE *f)
{
    __gb_callee = NULL;
    int64_t pos = io_stream_pos(f);
    return freaded(buf, size, n, f, pos, fread(buf, size, n, f));
}

RT_EXPORT size_t __gb_model_fread_unlocked(void *buf, size_t size, size_t n, FILE *f)
{
    __gb_callee = NULL;
    int64_t pos = io_stream_pos(f);
    return freaded(buf, size, n, f, pos, fread_unlocked(buf, size, n, f));
}

/* _FORTIFY_SOURCE's checked freads: within the buffer's size cap they are
 * fread; past it (or when size * n overflows) the real one reports it. */
extern size_t __fread_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f);
extern size_t __fread_unlocked_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f);

static int fits(size_t cap, size_t size, size_t n)
{
    return size == 0 || (n <= SIZE_MAX / size && size * n <= cap);
}

RT_EXPORT size_t __gb_model___fread_chk(void *buf, size_t cap, size_t size, size_t n, FILE *f)
{
    return fits(cap, size, n) ? __gb_model_fread(buf, size, n, f)
                              : __fread_chk(buf, cap, size, n, f);
}

RT_EXPORT size_t __gb_model___fread_unlocked_chk(void *buf, size_t cap, size_t size, size_t n,
                                                 FILE *f)
{
    return fits(cap, size, n) ? __gb_model_fread_unlocked(buf, size, n, f)
                              : __fread_unlocked_chk(buf, cap, size, n, f);
}

/* The last fseek(f, off, SEEK_END) on the input: ftell then answers
 * L + off while the stream is still there (checked concretely). */
static struct {
    FILE *f;
    int64_t off;
} at_end;

static int sought(FILE *f, int64_t off, int whence, int r)
{
    at_end.f = NULL;
    if (r == 0 && whence == SEEK_END && io_stream_pos(f) >= 0) {
        at_end.f = f;
        at_end.off = off;
    }
    __gb_ret = NULL;
    return r;
}

RT_EXPORT int __gb_model_fseek(FILE *f, long off, int whence)
{
    pin_param((const void *)__gb_model_fseek, 1, (uint64_t)off);
    return sought(f, off, whence, fseek(f, off, whence));
}

RT_EXPORT int __gb_model_fseeko(FILE *f, off_t off, int whence)
{
    pin_param((const void *)__gb_model_fseeko, 1, (uint64_t)off);
    return sought(f, off, whence, fseeko(f, off, whence));
}

RT_EXPORT int __gb_model_fseeko64(FILE *f, off64_t off, int whence)
{
    pin_param((const void *)__gb_model_fseeko64, 1, (uint64_t)off);
    return sought(f, off, whence, fseeko64(f, off, whence));
}

static int64_t told(FILE *f, int64_t r)
{
    __gb_ret = f == at_end.f && r >= 0 && io_stream_pos(f) == r ? len_plus(at_end.off, r) : NULL;
    return r;
}

RT_EXPORT long __gb_model_ftell(FILE *f)
{
    return (long)told(f, ftell(f));
}

RT_EXPORT off_t __gb_model_ftello(FILE *f)
{
    return (off_t)told(f, ftello(f));
}

RT_EXPORT off64_t __gb_model_ftello64(FILE *f)
{
    return (off64_t)told(f, ftello64(f));
}

/* getc's result: zext32 of the byte's shadow, and with the length
 * variable ite(L >u pos, that, EOF), so the search can end the file here
 * or (at EOF) ask for one more byte. */
static int got_char(int c, int64_t pos)
{
    __gb_ret = NULL;
    if (pos < 0 || !rt_active || (c == EOF) != ((uint64_t)pos >= in.len))
        return c; /* not the input, or bytes pushed back with ungetc */
    rt_expr_t *L = rt_input_len(), *b = rt_input((uint64_t)pos);
    rt_expr_t *v = b ? rt_unop(GBT_OP_ZEXT, 32, b, 0) : NULL;
    if (L && v)
        v = rt_ite(rt_binop(GBT_OP_UGT, L, rt_const(64, (uint64_t)pos)), v,
                   rt_const(32, (uint32_t)EOF));
    __gb_ret = c == EOF && !L ? NULL : v;
    return c;
}

RT_EXPORT int __gb_model_getc(FILE *f)
{
    int64_t pos = io_stream_pos(f);
    return got_char(getc(f), pos);
}

RT_EXPORT int __gb_model_fgetc(FILE *f)
{
    int64_t pos = io_stream_pos(f);
    return got_char(fgetc(f), pos);
}

RT_EXPORT int __gb_model__IO_getc(FILE *f)
{
    return __gb_model_getc(f);
}

RT_EXPORT int __gb_model_getchar(void)
{
    return __gb_model_getc(stdin);
}

/* The unlocked forms read the same stream the same way. */
RT_EXPORT int __gb_model_getc_unlocked(FILE *f)
{
    int64_t pos = io_stream_pos(f);
    return got_char(getc_unlocked(f), pos);
}

RT_EXPORT int __gb_model_fgetc_unlocked(FILE *f)
{
    int64_t pos = io_stream_pos(f);
    return got_char(fgetc_unlocked(f), pos);
}

RT_EXPORT int __gb_model_getchar_unlocked(void)
{
    return __gb_model_getc_unlocked(stdin);
}

/* glibc inlines getc_unlocked (and getc under some macros) at -O2: it
 * reads the stream's buffer itself and calls __uflow only to refill it.
 * So __uflow marks what it read into the buffer as the input's bytes at
 * their file offsets (the inlined reads then load shadows), and returns
 * the first of them as getc does. */
extern int __uflow(FILE *f);

RT_EXPORT int __gb_model___uflow(FILE *f)
{
    int c = __uflow(f);
    int64_t next = io_stream_pos(f);
    if (c == EOF || next <= 0)
        return got_char(c, next < 0 ? -1 : next);
    size_t left = (size_t)(f->_IO_read_end - f->_IO_read_ptr);
    if (left)
        io_mark(f->_IO_read_ptr, left, next);
    return got_char(c, next - 1);
}

/* fgets copies up to and including a newline: every copied byte but the
 * last is not '\n' and the last is, unless the size or EOF stopped it.
 * These conditions are recorded, so a solver cannot move the line end. */
RT_EXPORT char *__gb_model_fgets(char *s, int n, FILE *f)
{
    int64_t pos = io_stream_pos(f);
    char *r = fgets(s, n, f);
    __gb_ret = NULL;
    if (!r || !rt_active)
        return r;
    int64_t end = pos >= 0 ? io_stream_pos(f) : -1;
    size_t got = end > pos ? (size_t)(end - pos) : 0;
    if (pos < 0 || got == 0 || got >= (size_t)n) { /* not the input (or ungetc'd bytes) */
        rt_shadow_clear((uintptr_t)s, strlen(s) + 1);
        return r;
    }
    io_mark(s, got, pos);
    rt_shadow_set((uintptr_t)(s + got), NULL);
    for (size_t i = 0; i < got; i++) {
        rt_expr_t *b = io_byte(pos + (int64_t)i);
        int last = i + 1 == got;
        if (b && (!last || s[i] == '\n'))
            io_branch(rt_binop(GBT_OP_EQ, b, rt_const(8, '\n')), s[i] == '\n', SITE_FGETS_NL);
    }
    return r;
}

/* _FORTIFY_SOURCE's checked fgets: within the buffer's size it is fgets;
 * past it the real one reports the overflow. */
extern char *__fgets_chk(char *s, size_t size, int n, FILE *f);

RT_EXPORT char *__gb_model___fgets_chk(char *s, size_t size, int n, FILE *f)
{
    return n >= 0 && (size_t)n <= size ? __gb_model_fgets(s, n, f) : __fgets_chk(s, size, n, f);
}

/* ---- getline / getdelim ------------------------------------------------
 * The line's bytes keep their INPUT shadows, and each is a decision libc
 * made: not the delimiter, and the last one is, unless the file ended
 * first. Site ids hash the model, the call's return address and the file
 * offset, as fscanf's do, so a long line or a loop over lines does not run
 * one site's back-off budget dry. */

/* getdelim's result for a line from pos, over L: -1 when L <= pos; the
 * bytes left when the file ends inside the line (none of them is the
 * delimiter: recorded); else the concrete r. A line the file's end
 * stopped (found = 0, or r = -1 at the end) reads L - pos of a longer file
 * too when the bytes past the old end hold no delimiter: the zero bytes
 * Combine appends do not, unless the delimiter is 0 (left concrete). */
static rt_expr_t *len_line(int64_t pos, ssize_t r, int found, uint8_t delim)
{
    rt_expr_t *L = rt_input_len();
    if (!L || (!found && delim == 0))
        return NULL;
    rt_expr_t *p = rt_const(64, (uint64_t)pos), *v = rt_binop(GBT_OP_SUB, L, p);
    if (found)
        v = rt_ite(rt_binop(GBT_OP_ULT, L, rt_const(64, (uint64_t)(pos + r))), v,
                   rt_const(64, (uint64_t)r));
    return rt_ite(rt_binop(GBT_OP_ULE, L, p), rt_const(64, UINT64_MAX), v);
}

/* getdelim read r bytes into *line from stream offset pos (-1: not the
 * input). `ret` is the call's return address, for site ids. */
static ssize_t got_line(char **line, size_t *cap, uint8_t delim, FILE *f, int64_t pos, ssize_t r,
                        const void *ret)
{
    __gb_ret = NULL;
    if (!rt_active || !line || !cap)
        return r;
    rt_shadow_clear((uintptr_t)line, sizeof *line); /* libc wrote both */
    rt_shadow_clear((uintptr_t)cap, sizeof *cap);
    int64_t end = pos >= 0 ? io_stream_pos(f) : -1;
    if (r < 0) { /* at the file's end: a longer file has one more line */
        if (pos >= 0 && (uint64_t)pos == in.len && end == pos)
            __gb_ret = len_line(pos, r, 0, delim);
        return r;
    }
    const uint8_t *s = (const uint8_t *)*line;
    size_t n = (size_t)r;
    rt_shadow_clear((uintptr_t)s, n + 1);
    if (pos < 0 || end != pos + r || (uint64_t)end > in.len || memcmp(s, in.data + pos, n) != 0)
        return r; /* not the input, or bytes pushed back with ungetc: concrete */
    io_mark(*line, n, pos);
    for (size_t i = 0; i < n; i++) {
        int64_t k = pos + (int64_t)i;
        rt_model_decide(rt_model_site("getdelim", ret, 0, (uint64_t)k),
                        rt_binop(GBT_OP_EQ, io_byte(k), rt_const(8, delim)), s[i] == delim);
    }
    int found = s[n - 1] == delim;
    if (found || (uint64_t)end == in.len)
        __gb_ret = len_line(pos, r, found, delim);
    return r;
}

RT_EXPORT ssize_t __gb_model_getline(char **line, size_t *cap, FILE *f)
{
    __gb_callee = NULL;
    int64_t pos = io_stream_pos(f);
    return got_line(line, cap, '\n', f, pos, getline(line, cap, f), __builtin_return_address(0));
}

/* getdelim compares bytes with (unsigned char)delim. A symbolic delimiter
 * is pinned: the recorded decisions compare with its concrete value. */
RT_EXPORT ssize_t __gb_model_getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    pin_param((const void *)__gb_model_getdelim, 2, (uint64_t)delim);
    int64_t pos = io_stream_pos(f);
    return got_line(line, cap, (uint8_t)delim, f, pos, getdelim(line, cap, delim, f),
                    __builtin_return_address(0));
}

/* What glibc's inline getline calls when gcc builds with optimisation. */
extern ssize_t __getdelim(char **line, size_t *cap, int delim, FILE *f);

RT_EXPORT ssize_t __gb_model___getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    pin_param((const void *)__gb_model___getdelim, 2, (uint64_t)delim);
    int64_t pos = io_stream_pos(f);
    return got_line(line, cap, (uint8_t)delim, f, pos, __getdelim(line, cap, delim, f),
                    __builtin_return_address(0));
}

/* ---- stat: the input's st_size is L ---------------------------------------- */

static void stat_size(int r, dev_t dev, ino_t ino, off64_t *size)
{
    __gb_ret = NULL;
    if (r != 0 || !rt_active || in.state <= 0 || dev != in.dev || ino != in.ino)
        return;
    rt_expr_t *v = len_plus(0, (int64_t)*size);
    if (v)
        rt_shadow_store((uintptr_t)size, sizeof *size, v);
}

#define STAT_MODEL(name, type, arg_t, arg, check)                                                 \
    RT_EXPORT int __gb_model_##name(arg_t arg, type *st)                                          \
    {                                                                                             \
        int r = name(arg, st);                                                                    \
        if (r == 0 && check)                                                                      \
            stat_size(r, st->st_dev, st->st_ino, (off64_t *)&st->st_size);                        \
        __gb_ret = NULL;                                                                          \
        return r;                                                                                 \
    }

/* fstat names the input by descriptor; stat and lstat by what they found
 * (the check also opens the trace when the program stats before opening). */
STAT_MODEL(fstat, struct stat, int, fd, io_is_input_fd(fd))
STAT_MODEL(fstat64, struct stat64, int, fd, io_is_input_fd(fd))
STAT_MODEL(stat, struct stat, const char *, path, io_stat_is_input(st->st_dev, st->st_ino))
STAT_MODEL(stat64, struct stat64, const char *, path, io_stat_is_input(st->st_dev, st->st_ino))
STAT_MODEL(lstat, struct stat, const char *, path, io_stat_is_input(st->st_dev, st->st_ino))
STAT_MODEL(lstat64, struct stat64, const char *, path, io_stat_is_input(st->st_dev, st->st_ino))
