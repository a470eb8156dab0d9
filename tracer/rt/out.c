/* SPDX-License-Identifier: Apache-2.0 */
/* The trace writer: records go into a buffer that is emitted as one
 * checksummed block per write(), when it fills, at exit and from the fatal
 * signal handler, so a dying run leaves a readable prefix. Expression nodes
 * are written lazily, in post-order, the first time a PC entry needs them. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_int.h"

#define PAYLOAD_MAX (256u * 1024u) /* well under GBT_BLOCK_MAX */
#define REC_MAX 64u                /* the largest record we emit */

static int fd = -1;
static uint8_t buf[GBT_BLOCK_HEADER_SIZE + PAYLOAD_MAX];
static size_t used; /* payload bytes of whole records */
static uint64_t block_index;
static int ended;
/* Blocks already in the trace. Exported: instrumented code tests a
 * block's bit inline and calls __gb_block only when it is clear; api.c
 * sets every bit when no trace can open. */
RT_EXPORT uint8_t __gb_block_seen[GB_MAP_SIZE / 8];
static uint8_t header[GBT_HEADER_SIZE];
static unsigned header_version = GBT_VERSION; /* raised by the first TABLE or FP node */

static uint64_t hash_fn(const void *p, size_t n, uint64_t seed)
{
    return XXH3_64bits_withSeed(p, n, seed);
}

static void write_all(const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* disk full or closed: the trace ends here */
        p += w;
        n -= (size_t)w;
    }
}

static void flush_block(void)
{
    if (fd < 0 || used == 0)
        return;
    gbt_enc_block_header(buf, buf + GBT_BLOCK_HEADER_SIZE, (uint32_t)used, block_index++,
                         hash_fn);
    write_all(buf, GBT_BLOCK_HEADER_SIZE + used);
    used = 0;
}

/* Room for a record of up to `n` bytes, flushing when needed. */
static uint8_t *room_for(size_t n)
{
    if (used + n > PAYLOAD_MAX)
        flush_block();
    return buf + GBT_BLOCK_HEADER_SIZE + used;
}

static uint8_t *room(void) { return room_for(REC_MAX); }

/* Rewrites the header to version v when it says less: older readers
 * would reject the new ops (READ: 2, floating point: 3), and a trace
 * without them keeps the oldest version that reads it. 0 if written. */
static int raise_version(unsigned v)
{
    if (header_version >= v)
        return 0;
    header_version = v;
    gbt_enc_header_v(header, v, gbt_get64(header + 16), gbt_get64(header + 24), hash_fn);
    return pwrite(fd, header, sizeof header, 0) == (ssize_t)sizeof header ? 0 : -1;
}

/* The TABLE record of a READ node's table, once, before the node. */
static void write_table(uint32_t id)
{
    rt_table_t *t = rt_table_by_id(id);
    if (!t || t->written)
        return;
    t->written = 1;
    if (raise_version(GBT_VERSION_TABLES) != 0)
        return;
    size_t n = 3 + GBT_TABLE_BODY(t->size);
    used += gbt_enc_table(room_for(n), id, (const uint8_t *)t->start, t->size);
}

/* Each op code's arity (gbt_op_arity), -1 for the pair and invalid codes:
 * one look-up per node written instead of a chain of compares per visit. */
static int8_t arity_of[256];

static void init_arity(void)
{
    for (unsigned op = 0; op < 256; op++)
        arity_of[op] = (int8_t)gbt_op_arity(op);
}

static void write_node(rt_expr_t *e, int n)
{
    uint32_t args[3];
    for (int i = 0; i < n; i++)
        args[i] = e->arg[i]->id;
    if (RT_UNLIKELY(e->op >= GBT_OP_READ)) {
        if (e->op == GBT_OP_READ)
            write_table((uint32_t)e->imm);
        if (gbt_op_is_fp(e->op))
            raise_version(GBT_VERSION_FP);
    }
    used += gbt_enc_node(room(), e->op, e->width, (unsigned)n, args, n < 3 ? e->imm : 0);
    e->id = (uint32_t)++rt.written;
}

/* Writes `root` and every unwritten node below it, arguments first. A
 * depth-first walk holding the path from the root: each frame keeps its
 * node, its arity and the next argument to visit. */
static void write_dag(rt_expr_t *root)
{
    enum { STACK = 1 << 16 };
    static struct frame {
        rt_expr_t *e;
        int8_t n, next;
    } stack[STACK];
    size_t sp = 0;
    if (root->id)
        return;
    int n = arity_of[root->op];
    if (n < 0)
        return; /* a pair (rt_pair): rt_out_pc drops the entry */
    stack[sp++] = (struct frame){root, (int8_t)n, 0};
    while (sp > 0) {
        struct frame *f = &stack[sp - 1];
        if (f->next < f->n) {
            rt_expr_t *a = f->e->arg[f->next++];
            if (!a->id && sp < STACK) {
                n = arity_of[a->op];
                if (n < 0)
                    return; /* a pair under a node: rt_out_pc drops the entry */
                stack[sp++] = (struct frame){a, (int8_t)n, 0};
            }
            continue;
        }
        if (!f->e->id)
            write_node(f->e, f->n);
        sp--;
    }
}

static void on_fatal(int sig)
{
    rt_out_end(GBT_END_SIGNAL, sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_exit_hook(void) { rt_out_end(GBT_END_EXIT, 0); }

/* A fresh file at `path`, never through a symlink and never a FIFO or a
 * device: Glassbox hands over a private name no one else has (O_EXCL); a
 * regular file already there (a run by hand, again) is replaced by a new
 * one, anything else is left alone and the run goes untraced. */
static int open_fresh(const char *path)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
    int f = open(path, flags, 0644);
    struct stat st;
    if (f < 0 && errno == EEXIST && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        unlink(path) == 0)
        f = open(path, flags, 0644);
    return f;
}

RT_HIDDEN int rt_out_open(const char *path, const uint8_t *input, size_t len)
{
    fd = open_fresh(path);
    if (fd < 0)
        return -1;
    init_arity();
    gbt_enc_header(header, len, XXH3_64bits(input, len), hash_fn);
    write_all(header, sizeof header);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_fatal);
    atexit(on_exit_hook);
    return 0;
}

RT_HIDDEN void rt_out_pc(unsigned kind, int taken, uint32_t site, rt_expr_t *cond)
{
    if (fd < 0 || rt.stopped || ended)
        return;
    if (rt.pcs >= rt.lim.max_pcs) {
        rt.stopped = 1;
        rt.dropped++;
        return;
    }
    write_dag(cond);
    /* The DAG was too deep for the writer's stack, or held the pair of an
     * integer wider than 64 bits, which only a call through a mismatched
     * function type can put under a 64-bit node (docs/tracer.md,
     * "Integers wider than 64 bits"). */
    if (!cond->id) {
        rt.dropped++;
        return;
    }
    used += gbt_enc_pc(room(), kind, (unsigned)taken, site, cond->id);
    rt.pcs++;
}

RT_HIDDEN void rt_out_block(uint32_t id)
{
    id &= GB_MAP_SIZE - 1;
    /* The seen bit first: it answers nearly every call, alone. */
    if ((__gb_block_seen[id >> 3] & (1u << (id & 7))) || fd < 0 || ended)
        return;
    __gb_block_seen[id >> 3] |= (uint8_t)(1u << (id & 7));
    used += gbt_enc_block(room(), id);
}

RT_HIDDEN void rt_out_end(unsigned kind, int code)
{
    if (fd < 0 || ended)
        return;
    ended = 1;
    if (rt.stopped && kind == GBT_END_EXIT)
        kind = GBT_END_LIMIT;
    used += gbt_enc_end(room(), kind, code, rt.written, rt.pcs, rt.dropped);
    flush_block();
}
