/* SPDX-License-Identifier: Apache-2.0 */
/* The file that talks to Z3 (with z3_fp.c, its floating-point half):
 * translates DAG nodes to bit-vector terms
 * (width-1 values stay 1-bit vectors), checks conjunctions, reads models.
 * Uses a reference-counted context, an error handler that never exits, and
 * leaves signals to the caller. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "z3_int.h"


void gb_z3_set_keep(gb_z3_t *z, const uint64_t *offs, const uint8_t *vals, size_t n)
{
    z->keep.off = offs;
    z->keep.val = vals;
    z->keep.n = n;
}


/* Z3's default handler exits the process. Ours records the first error of
 * the current call; the bridge checks it (and NULL results) after each step.
 * Thread-local because a handler gets no user pointer. */
static _Thread_local int z3_failed;
static _Thread_local Z3_error_code z3_code;

static void on_z3_error(Z3_context c, Z3_error_code code)
{
    (void)c;
    if (!z3_failed) {
        z3_failed = 1;
        z3_code = code;
    }
}

static int z3_fail(gb_z3_t *z, const char *what, gb_err_t *e)
{
    const char *msg = z3_failed ? Z3_get_error_msg(z->ctx, z3_code) : "null result";
    z3_failed = 0;
    return gb_err_set(e, "z3: %s: %s", what, msg ? msg : "unknown error");
}

/* Takes a reference on a fresh term, or reports failure with NULL. */
static Z3_ast keep(gb_z3_t *z, Z3_ast a)
{
    if (!a || z3_failed)
        return NULL;
    Z3_inc_ref(z->ctx, a);
    return a;
}

/* Releases the query's own terms and definitions (a chain query's); the
 * next query starts from the trace's cache. */
static void drop_query(gb_z3_t *z)
{
    for (size_t i = 0; z->q.own && i < z->terms.ncache; i++)
        if (z->q.own[i])
            Z3_dec_ref(z->ctx, z->q.own[i]);
    for (size_t k = 0; k < z->q.ndefs; k++)
        Z3_dec_ref(z->ctx, z->q.defs[k]);
    gb_free(z->q.own);
    gb_free(z->q.defs);
    gb_free(z->q.flat);
    z->q = (struct gb_z3_qstate){.term = z->terms.cache};
}

/* Releases the trace's terms (and the query's, which may use them). */
static void drop_cache(gb_z3_t *z)
{
    drop_query(z);
    for (size_t i = 0; i < z->terms.ncache; i++)
        if (z->terms.cache[i])
            Z3_dec_ref(z->ctx, z->terms.cache[i]);
    gb_free(z->terms.cache);
    gb_free(z->terms.range);
    z->terms.cache = NULL;
    z->terms.range = NULL;
    z->terms.ncache = 0;
    z->terms.serial = 0;
    z->q.term = NULL;
}

const char *gb_z3_version(void)
{
    return Z3_get_full_version();
}

/* Releases every term and the context itself. */
static void close_ctx(gb_z3_t *z)
{
    if (!z->ctx)
        return;
    drop_cache(z);
    for (unsigned w = 1; w <= GBT_MAX_WIDTH; w++)
        if (z->sort[w]) {
            Z3_dec_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->sort[w]));
            z->sort[w] = NULL;
        }
    if (z->one)
        Z3_dec_ref(z->ctx, z->one);
    if (z->zero)
        Z3_dec_ref(z->ctx, z->zero);
    z->one = z->zero = NULL;
    Z3_del_context(z->ctx);
    z->ctx = NULL;
}

static void guard_stop(gb_z3_t *z);

void gb_z3_free(gb_z3_t *z)
{
    if (!z)
        return;
    guard_stop(z);
    close_ctx(z);
    gb_free(z);
}

static Z3_sort bv_sort(gb_z3_t *z, unsigned w)
{
    Z3_sort s = gb_z3_bv_sort(z, w);
    return z3_failed ? NULL : s;
}

/* A fresh context with its constants; -1 with `e` (and no context). */
static int open_ctx(gb_z3_t *z, gb_err_t *e)
{
    Z3_config cfg = Z3_mk_config();
    if (!cfg)
        return gb_err_set(e, "z3: cannot create a configuration");
    Z3_set_param_value(cfg, "model", "true");
    z->ctx = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!z->ctx)
        return gb_err_set(e, "z3: cannot create a context");
    Z3_set_error_handler(z->ctx, on_z3_error);
    z3_failed = 0;
    Z3_sort s1 = bv_sort(z, 1);
    z->one = s1 ? keep(z, Z3_mk_unsigned_int64(z->ctx, 1, s1)) : NULL;
    z->zero = s1 ? keep(z, Z3_mk_unsigned_int64(z->ctx, 0, s1)) : NULL;
    if (!z->one || !z->zero) {
        z3_fail(z, "creating constants", e);
        close_ctx(z);
        return -1;
    }
    z->mem.base_bytes = Z3_get_estimated_alloc_size();
    return 0;
}

int gb_z3_new(gb_z3_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_z3_t *z = gb_calloc(1, sizeof *z);
    if (!z)
        return gb_err_set(e, "out of memory creating the solver");
    if (open_ctx(z, e) != 0) {
        gb_free(z);
        return -1;
    }
    *out = z;
    return 0;
}

uint64_t gb_z3_renewals(const gb_z3_t *z) { return z ? z->mem.renewals : 0; }

uint64_t gb_z3_memouts(const gb_z3_t *z) { return z ? z->mem.memouts : 0; }

void gb_z3_set_query_cap(gb_z3_t *z, size_t bytes) { z->mem.query_cap = bytes; }

void gb_z3_set_ceiling(gb_z3_t *z, size_t bytes, int exit_status, const char *what)
{
    z->mem.ceiling = bytes;
    z->mem.ceiling_exit = exit_status;
    snprintf(z->mem.ceiling_what, sizeof z->mem.ceiling_what, "%s",
             what ? what : "glassbox: Z3 went over its memory ceiling");
}

uint64_t gb_z3_mem_bytes(void) { return Z3_get_estimated_alloc_size(); }

/* A context reused across solvers keeps what they needed: over 12 growing
 * queries (bench/solver/z3mem.c) Z3's estimate went from 17 to 479 MB in
 * one context, and back to 17 MB after each query with a new context. So
 * between queries (end_query) and between traces, when Z3 holds more than
 * `growth` bytes above what it held right after the context was made, the
 * context is made anew (nothing outlives a query but the constants, and
 * the translated terms, which go with it). Measured against that
 * baseline, not an absolute figure: what Z3 holds outside any context
 * (its global tables) does not go. */
static int renew(gb_z3_t *z, gb_err_t *e)
{
    close_ctx(z);
    z->mem.renewals++;
    return open_ctx(z, e) == 0 ? 1 : -1;
}

int gb_z3_renew_if_over(gb_z3_t *z, size_t growth, gb_err_t *e)
{
    size_t now = Z3_get_estimated_alloc_size();
    if (now <= z->mem.base_bytes || now - z->mem.base_bytes <= growth)
        return 0;
    return renew(z, e);
}

/* ---- Translation ----------------------------------------------------- */

/* The name of the input byte at `off`. Z3 keeps every string symbol for
 * the life of the process, in a table no context owns (a million names
 * "b<offset>" held 50 MB, and a new context gave none of it back), so the
 * offsets Z3 can name by an integer are named so: Z3_mk_int_symbol takes 0
 * to 2^30 - 1 and allocates nothing. Assumption literals are int symbols
 * too, of Boolean sort, so they are other constants. Beyond that range
 * (the length bytes, at GBT_LEN_OFFSET) there are a few string names. */
#define GB_Z3_INT_SYMBOLS (1u << 30)
static Z3_symbol byte_symbol(Z3_context c, uint64_t off)
{
    if (off < GB_Z3_INT_SYMBOLS)
        return Z3_mk_int_symbol(c, (int)off);
    char name[32];
    snprintf(name, sizeof name, "b%llu", (unsigned long long)off);
    return Z3_mk_string_symbol(c, name);
}

typedef Z3_ast (*z3_bin_fn)(Z3_context, Z3_ast, Z3_ast);

static z3_bin_fn bin_fn(unsigned op)
{
    switch (op) {
    case GBT_OP_ADD: return Z3_mk_bvadd;
    case GBT_OP_SUB: return Z3_mk_bvsub;
    case GBT_OP_MUL: return Z3_mk_bvmul;
    case GBT_OP_UDIV: return Z3_mk_bvudiv;
    case GBT_OP_SDIV: return Z3_mk_bvsdiv;
    case GBT_OP_UREM: return Z3_mk_bvurem;
    case GBT_OP_SREM: return Z3_mk_bvsrem;
    case GBT_OP_SHL: return Z3_mk_bvshl;
    case GBT_OP_LSHR: return Z3_mk_bvlshr;
    case GBT_OP_ASHR: return Z3_mk_bvashr;
    case GBT_OP_AND: return Z3_mk_bvand;
    case GBT_OP_OR: return Z3_mk_bvor;
    case GBT_OP_XOR: return Z3_mk_bvxor;
    case GBT_OP_CONCAT: return Z3_mk_concat;
    case GBT_OP_EQ: return Z3_mk_eq;
    case GBT_OP_NE: return Z3_mk_eq; /* negated by the caller */
    case GBT_OP_ULT: return Z3_mk_bvult;
    case GBT_OP_ULE: return Z3_mk_bvule;
    case GBT_OP_UGT: return Z3_mk_bvugt;
    case GBT_OP_UGE: return Z3_mk_bvuge;
    case GBT_OP_SLT: return Z3_mk_bvslt;
    case GBT_OP_SLE: return Z3_mk_bvsle;
    case GBT_OP_SGT: return Z3_mk_bvsgt;
    case GBT_OP_SGE: return Z3_mk_bvsge;
    default: return NULL;
    }
}

/* Bits of node i known to be zero from its shape (a small known-bits
 * analysis, `depth` bounded): what lets a table read's ite tree skip the
 * offset bits an aligned or masked index never sets. */
static uint64_t known_zero(const gb_dag_t *d, uint32_t i, int depth)
{
    const gb_node_t *x = &d->nodes[i];
    uint64_t m = gb_mask(x->width), hi = ~m;
    if (x->op == GBT_OP_CONST)
        return ~x->imm;
    if (depth <= 0 || x->nargs == 0)
        return hi;
    uint64_t a = known_zero(d, x->args[0], depth - 1) | ~gb_mask(d->nodes[x->args[0]].width);
    const gb_node_t *y = x->nargs > 1 ? &d->nodes[x->args[1]] : NULL;
    uint64_t b = y ? known_zero(d, x->args[1], depth - 1) | ~gb_mask(y->width) : 0;
    switch (x->op) {
    case GBT_OP_ZEXT: return a | hi;
    case GBT_OP_AND: return a | b | hi;
    case GBT_OP_OR: case GBT_OP_XOR: return (a & b) | hi;
    case GBT_OP_EXTRACT: return (a >> x->imm) | hi;
    case GBT_OP_CONCAT: return (a << y->width) | (b & gb_mask(y->width)) | hi;
    case GBT_OP_SEXT: /* low bits as the argument; high ones if its sign bit is */
        return ((a >> (d->nodes[x->args[0]].width - 1)) & 1) ? a | hi : (a & gb_mask(d->nodes[x->args[0]].width)) | hi;
    case GBT_OP_SHL: case GBT_OP_MUL: {
        if (y->op != GBT_OP_CONST)
            return hi;
        uint64_t k = y->imm;
        if (x->op == GBT_OP_MUL) { /* by a power of two only */
            if (k == 0 || (k & (k - 1)))
                return hi;
            k = (uint64_t)__builtin_ctzll(k);
        }
        return k >= 64 ? ~0ull : (a << k) | ((1ull << k) - 1) | hi;
    }
    case GBT_OP_ADD: { /* no carry into bits both sides leave zero at the bottom */
        uint64_t t = ~(a & b);
        unsigned tz = t ? (unsigned)__builtin_ctzll(t) : 64;
        return (tz >= 64 ? ~0ull : (1ull << tz) - 1) | hi;
    }
    default: return hi;
    }
}

/* Drops the references to the intermediate terms of a build (NULL ones
 * were never made). */
static void release4(Z3_context c, const Z3_ast held[4])
{
    for (size_t i = 0; i < 4; i++)
        if (held[i])
            Z3_dec_ref(c, held[i]);
}

/* A byte of a table read: byte k past offset `off` (a 64-bit term) of
 * table tb, whose known-zero bits are kz. */
typedef struct table_at {
    const gb_table_t *tb;
    Z3_ast off;
    uint64_t kz;
    uint64_t k;
} table_at_t;

/* Byte a->k past offset a->off of table a->tb, as a balanced ite tree over
 * the offset's bits below `bit` that may be set (not in a->kz; `v` = the
 * value of the bits above, decided by the enclosing ites).
 * A mux of constants bit-blasts well (measured: the crackme's CRC query
 * timed out with an array of stores). Returns a referenced term. */
static Z3_ast byte_mux(gb_z3_t *z, const table_at_t *a, unsigned bit, uint64_t v)
{
    Z3_context c = z->ctx;
    const gb_table_t *tb = a->tb;
    while (bit > 0 && ((a->kz >> (bit - 1)) & 1))
        bit--;
    if (bit == 0 || v + a->k >= tb->len) {
        uint64_t o = v + a->k;
        return keep(z, Z3_mk_unsigned_int64(c, o < tb->len ? tb->bytes[o] : 0, bv_sort(z, 8)));
    }
    Z3_ast hi = byte_mux(z, a, bit - 1, v | (1ull << (bit - 1)));
    Z3_ast lw = hi ? byte_mux(z, a, bit - 1, v) : NULL;
    Z3_ast sel = lw ? keep(z, Z3_mk_extract(c, bit - 1, bit - 1, a->off)) : NULL;
    Z3_ast cond = sel ? keep(z, Z3_mk_eq(c, sel, z->one)) : NULL;
    Z3_ast r = cond ? keep(z, Z3_mk_ite(c, cond, hi, lw)) : NULL;
    release4(c, (Z3_ast[4]){hi, lw, sel, cond});
    return r;
}

/* The byte `a` names, 0 past the table's end; a referenced term. Offset
 * bits at and above `bits` (enough for the table) must be zero. */
static Z3_ast table_byte(gb_z3_t *z, const table_at_t *a)
{
    Z3_context c = z->ctx;
    unsigned bits = 0;
    while ((1ull << bits) < a->tb->len)
        bits++;
    Z3_ast tree = byte_mux(z, a, bits, 0);
    if (!tree || (a->kz | gb_mask(bits)) == ~0ull)
        return tree; /* the high bits are known to be zero */
    Z3_ast lim = keep(z, Z3_mk_unsigned_int64(c, 1ull << bits, bv_sort(z, 64)));
    Z3_ast in = lim ? keep(z, Z3_mk_bvult(c, a->off, lim)) : NULL;
    Z3_ast zero = in ? keep(z, Z3_mk_unsigned_int64(c, 0, bv_sort(z, 8))) : NULL;
    Z3_ast r = zero ? keep(z, Z3_mk_ite(c, in, tree, zero)) : NULL;
    release4(c, (Z3_ast[4]){tree, lim, in, zero});
    return r;
}

/* READ: width/8 table bytes at offset, offset + 1, ... joined
 * little-endian (the highest offset is the most significant byte). */
static Z3_ast translate_read(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, Z3_ast off)
{
    Z3_context c = z->ctx;
    const gb_table_t *tb = gb_dag_table(d, (uint32_t)x->imm);
    unsigned aw = d->nodes[x->args[0]].width, n = x->width / 8u;
    if (!tb || !bv_sort(z, 64) || n == 0)
        return NULL;
    uint64_t kz = known_zero(d, x->args[0], 24) | ~gb_mask(aw);
    Z3_ast base = keep(z, aw < 64 ? Z3_mk_zero_ext(c, 64 - aw, off) : off);
    Z3_ast acc = NULL;
    for (unsigned i = 0; base && i < n && !z3_failed; i++) {
        Z3_ast byte = table_byte(z, &(table_at_t){tb, base, kz, i});
        Z3_ast next = byte && acc ? keep(z, Z3_mk_concat(c, byte, acc)) : byte;
        if (next != byte && byte)
            Z3_dec_ref(c, byte);
        if (acc)
            Z3_dec_ref(c, acc);
        acc = next;
        if (!acc)
            break;
    }
    if (base)
        Z3_dec_ref(c, base);
    if (!acc || z3_failed)
        return NULL;
    /* Hand back an unreferenced term like every other translation: the
     * caller's keep() takes the reference this one gives up. */
    Z3_ast r = Z3_mk_bvadd(c, acc, Z3_mk_unsigned_int64(c, 0, bv_sort(z, x->width)));
    Z3_dec_ref(c, acc);
    return r;
}

/* For z3_fp.c, the bridge's floating-point half (z3_int.h). */

/* The term for node x, whose arguments are already in the cache. Each
 * intermediate result feeds the very next call, which is what keeps an
 * unreferenced term alive in a reference-counted context. */
static Z3_ast translate(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x)
{
    Z3_context c = z->ctx;
    Z3_ast a0 = x->nargs > 0 ? z->q.term[x->args[0]] : NULL;
    Z3_ast a1 = x->nargs > 1 ? z->q.term[x->args[1]] : NULL;
    Z3_sort s = bv_sort(z, x->width);
    if (!s)
        return NULL;
    if (gbt_op_is_fp(x->op))
        return gb_z3_translate_fp(z, d, x, a0, a1);
    switch (x->op) {
    case GBT_OP_CONST: return Z3_mk_unsigned_int64(c, x->imm, s);
    case GBT_OP_INPUT: return Z3_mk_const(c, byte_symbol(c, x->imm), s);
    case GBT_OP_NOT: return Z3_mk_bvnot(c, a0);
    case GBT_OP_NEG: return Z3_mk_bvneg(c, a0);
    case GBT_OP_ZEXT: return Z3_mk_zero_ext(c, x->width - d->nodes[x->args[0]].width, a0);
    case GBT_OP_SEXT: return Z3_mk_sign_ext(c, x->width - d->nodes[x->args[0]].width, a0);
    case GBT_OP_EXTRACT:
        return Z3_mk_extract(c, (unsigned)x->imm + x->width - 1, (unsigned)x->imm, a0);
    case GBT_OP_ITE:
        return Z3_mk_ite(c, Z3_mk_eq(c, a0, z->one), a1, z->q.term[x->args[2]]);
    case GBT_OP_READ: return translate_read(z, d, x, a0);
    default: break;
    }
    z3_bin_fn f = bin_fn(x->op);
    if (!f)
        return NULL;
    if (!gbt_op_is_cmp(x->op))
        return f(c, a0, a1);
    Z3_ast b = f(c, a0, a1);
    if (x->op == GBT_OP_NE)
        b = Z3_mk_not(c, b);
    return Z3_mk_ite(c, b, z->one, z->zero);
}

/* ---- Narrowing ------------------------------------------------------- */

/* Parsers keep offsets and lengths in 64-bit size_t: a loop over records
 * sums zero-extended length bytes into 64-bit adds and compares them with
 * the input's length. Z3 bit-blasts each of those at full width, and a
 * query over a dozen records took 100-300 ms. Bounds on each node
 * (node_range) show when a value needs fewer bits than its width:
 * - hi < 2^k: the value is the zero extension of its low k bits;
 * - sbits = k: the value is the sign extension of its low k bits.
 * Add, sub and mul modulo 2^k depend only on the operands' low k bits, so
 * a result below 2^k is computed at k bits and zero-extended. Unsigned and
 * signed order, and equality, of two values that both fit are those of
 * their low k bits (sign extension keeps unsigned order: it maps the k-bit
 * values with the top bit set above all the others, in order). */

void gb_z3_set_narrow(gb_z3_t *z, int on) { z->terms.no_narrow = !on; }

uint64_t gb_z3_narrowed(const gb_z3_t *z) { return z ? z->terms.narrowed : 0; }

/* Bits needed for v unsigned (at least 1). */
static unsigned bits_for(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 1u; }

static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

/* The bounds of x from its arguments' (already in r). */
static gb_range_t node_range(const gb_dag_t *d, const gb_range_t *r, const gb_node_t *x)
{
    unsigned w = x->width;
    uint64_t m = gb_mask(w), t, u;
    gb_range_t full = {0, m, (uint8_t)w}, a = full, b = full, o = full;
    if (x->nargs > 0)
        a = r[x->args[0]];
    if (x->nargs > 1)
        b = r[x->args[1]];
    unsigned sa = a.sbits, sb = b.sbits;
    switch (x->op) {
    case GBT_OP_CONST: {
        uint64_t v = x->imm & m;
        int64_t sv = (int64_t)(w < 64 && (v >> (w - 1)) ? v | ~m : v);
        o = (gb_range_t){v, v, (uint8_t)(64 - __builtin_clrsbll(sv))};
        break;
    }
    case GBT_OP_ZEXT: o.lo = a.lo, o.hi = a.hi; break;
    case GBT_OP_SEXT: o.sbits = (uint8_t)sa; break;
    case GBT_OP_EXTRACT:
        if (x->imm == 0) {
            if (a.hi <= m)
                o.lo = a.lo, o.hi = a.hi;
            o.sbits = (uint8_t)umin(sa, w);
        }
        break;
    case GBT_OP_CONCAT: { /* hi:lo = hi * 2^lw + lo, monotone in both */
        unsigned lw = d->nodes[x->args[1]].width;
        o.lo = a.lo << lw | b.lo, o.hi = a.hi << lw | b.hi;
        break;
    }
    case GBT_OP_ADD:
        if (!__builtin_add_overflow(a.hi, b.hi, &t) && t <= m)
            o.lo = a.lo + b.lo, o.hi = t;
        o.sbits = (uint8_t)umin(umax(sa, sb) + 1, w);
        break;
    case GBT_OP_SUB:
        if (a.lo >= b.hi)
            o.lo = a.lo - b.hi, o.hi = a.hi - b.lo;
        o.sbits = (uint8_t)umin(umax(sa, sb) + 1, w);
        break;
    case GBT_OP_MUL:
        if (!__builtin_mul_overflow(a.hi, b.hi, &t) && t <= m)
            o.lo = a.lo * b.lo, o.hi = t;
        o.sbits = (uint8_t)umin(sa + sb, w);
        break;
    case GBT_OP_SHL:
        if (b.lo == b.hi && b.hi < 64) {
            if ((a.hi << b.hi) >> b.hi == a.hi && (a.hi << b.hi) <= m)
                o.lo = a.lo << b.hi, o.hi = a.hi << b.hi;
            o.sbits = (uint8_t)umin(sa + (unsigned)b.hi, w);
        }
        break;
    case GBT_OP_LSHR:
        if (b.lo != b.hi)
            o.hi = a.hi;
        else
            o.lo = b.hi >= 64 ? 0 : a.lo >> b.hi, o.hi = b.hi >= 64 ? 0 : a.hi >> b.hi;
        break;
    case GBT_OP_ASHR:
        if (b.lo == b.hi)
            o.sbits = (uint8_t)(b.hi >= sa ? 1 : sa - b.hi);
        break;
    case GBT_OP_UDIV: /* x / 0 is all ones (SMT-LIB) */
        if (b.lo > 0)
            o.lo = a.lo / b.hi, o.hi = a.hi / b.lo;
        break;
    case GBT_OP_UREM: /* x % 0 is x */
        o.hi = b.lo > 0 && b.hi - 1 < a.hi ? b.hi - 1 : a.hi;
        break;
    case GBT_OP_AND:
        o.hi = a.hi < b.hi ? a.hi : b.hi;
        o.sbits = (uint8_t)umax(sa, sb);
        break;
    case GBT_OP_OR:
    case GBT_OP_XOR:
        u = a.hi > b.hi ? a.hi : b.hi;
        o.hi = (bits_for(u) >= 64 ? ~0ull : (1ull << bits_for(u)) - 1) & m;
        if (x->op == GBT_OP_OR)
            o.lo = a.lo > b.lo ? a.lo : b.lo;
        o.sbits = (uint8_t)umax(sa, sb);
        break;
    case GBT_OP_NOT: o.sbits = (uint8_t)sa; break;
    case GBT_OP_NEG: o.sbits = (uint8_t)umin(sa + 1, w); break;
    case GBT_OP_ITE: {
        gb_range_t c = r[x->args[2]];
        o.lo = b.lo < c.lo ? b.lo : c.lo;
        o.hi = b.hi > c.hi ? b.hi : c.hi;
        o.sbits = (uint8_t)umax(sb, c.sbits);
        break;
    }
    default: break;
    }
    /* Below 2^(k-1) unsigned: also the sign extension of k bits. */
    if (bits_for(o.hi) < w)
        o.sbits = (uint8_t)umin(o.sbits, bits_for(o.hi) + 1);
    return o;
}

/* Makes r (fresh, unreferenced) referenced, then releases the operands'
 * low bits (referenced: of two terms made in a row, the first would not
 * outlive the second unreferenced). */
static Z3_ast narrow_done(gb_z3_t *z, Z3_ast r, Z3_ast l0, Z3_ast l1)
{
    r = keep(z, r);
    if (l0)
        Z3_dec_ref(z->ctx, l0);
    if (l1)
        Z3_dec_ref(z->ctx, l1);
    return r;
}

/* translate(), narrowed where the bounds allow (node i); referenced. */
static Z3_ast translate_narrow(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, uint32_t i)
{
    Z3_context c = z->ctx;
    if (x->nargs != 2 || x->op == GBT_OP_CONCAT)
        return keep(z, translate(z, d, x));
    unsigned w = x->width, aw = d->nodes[x->args[0]].width, k;
    const gb_range_t *rg = z->terms.range;
    gb_range_t o = rg[i], ra = rg[x->args[0]], rb = rg[x->args[1]];
    switch (x->op) {
    case GBT_OP_ADD:
    case GBT_OP_SUB:
    case GBT_OP_MUL:
        /* Only zero extension: computed at sbits bits and sign-extended,
         * lz4's checksum queries took 6x longer in Z3. */
        k = bits_for(o.hi);
        break;
    case GBT_OP_EQ:
    case GBT_OP_NE:
    case GBT_OP_ULT:
    case GBT_OP_ULE:
    case GBT_OP_UGT:
    case GBT_OP_UGE:
        k = umin(umax(ra.sbits, rb.sbits), bits_for(ra.hi > rb.hi ? ra.hi : rb.hi));
        break;
    case GBT_OP_SLT:
    case GBT_OP_SLE:
    case GBT_OP_SGT:
    case GBT_OP_SGE:
        k = umax(ra.sbits, rb.sbits);
        break;
    default: k = 64; break;
    }
    if (k >= aw)
        return keep(z, translate(z, d, x));
    Z3_ast a0 = z->q.term[x->args[0]], a1 = z->q.term[x->args[1]];
    Z3_ast l0 = keep(z, Z3_mk_extract(c, k - 1, 0, a0));
    Z3_ast l1 = l0 ? keep(z, Z3_mk_extract(c, k - 1, 0, a1)) : NULL;
    Z3_ast r = l1 ? bin_fn(x->op)(c, l0, l1) : NULL;
    if (r && !gbt_op_is_cmp(x->op))
        r = Z3_mk_zero_ext(c, w - k, r);
    else if (r) {
        if (x->op == GBT_OP_NE)
            r = Z3_mk_not(c, r);
        r = Z3_mk_ite(c, r, z->one, z->zero);
    }
    z->terms.narrowed++;
    return narrow_done(z, r, l0, l1);
}

/* A product or quotient of two input-dependent values wider than a byte
 * (a width times a height). Bit-blasting makes a multiplier circuit of it
 * that the qfbv tactic's SAT search is slow on: strtol_size's wrap query
 * took the tactic 7-17 s and the simple solver 0.8-2.8 s (bench/RESULTS.md,
 * session 18). */
static int var_mul(const gb_dag_t *d, const gb_node_t *x)
{
    switch (x->op) {
    case GBT_OP_MUL:
    case GBT_OP_UDIV:
    case GBT_OP_SDIV:
    case GBT_OP_UREM:
    case GBT_OP_SREM:
        return x->width > 8 && d->nodes[x->args[0]].op != GBT_OP_CONST &&
               d->nodes[x->args[1]].op != GBT_OP_CONST;
    default: return 0;
    }
}

/* The term cache of trace t: kept while the trace stays the same. */
static int cache_for(gb_z3_t *z, const gb_trace_t *t, gb_err_t *e)
{
    if (z->terms.serial == t->serial)
        return 0;
    drop_cache(z);
    if (gb_z3_renew_if_over(z, (size_t)GB_Z3_GROWTH_MAX_MB << 20, e) < 0)
        return -1;
    z->terms.cache = gb_calloc(t->dag.n, sizeof *z->terms.cache);
    z->terms.range = gb_malloc(t->dag.n * sizeof *z->terms.range + 1);
    if (!z->terms.cache || !z->terms.range)
        return gb_err_set(e, "out of memory translating a query");
    z->terms.ncache = t->dag.n;
    z->terms.serial = t->serial;
    return 0;
}

/* The nodes reachable from the query's conjuncts, ascending (*list, the
 * caller frees it); (size_t)-1 when out of memory. */
static size_t query_nodes(const gb_z3_query_t *q, uint32_t **list)
{
    uint32_t *roots = gb_malloc((q->nc ? q->nc : 1) * sizeof *roots);
    *list = NULL;
    if (!roots)
        return (size_t)-1;
    for (size_t i = 0; i < q->nc; i++)
        roots[i] = q->cj[i].node;
    size_t n = gb_dag_reach(&q->t->dag, roots, q->nc, list);
    gb_free(roots);
    return n;
}

/* What the query's nodes list[0..n) are made of (z->q): FP, a product of
 * two variables, the longest chain of nested sums. 0, or -1 when out of
 * memory. */
static int query_facts(gb_z3_t *z, const gb_dag_t *d, const uint32_t *list, size_t n)
{
    uint16_t *sums = gb_malloc((n ? n : 1) * sizeof *sums); /* per list position */
    if (!sums)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const gb_node_t *x = &d->nodes[list[i]];
        z->q.fp |= gbt_op_is_fp(x->op);
        z->q.varmul |= var_mul(d, x);
        sums[i] = 0; /* the longest chain of sums nested in x */
        if (x->op == GBT_OP_ADD || x->op == GBT_OP_SUB)
            for (unsigned k = 0; k < x->nargs; k++) {
                uint16_t s = sums[gb_dag_pos(list, i, x->args[k])];
                if (s + 1u > sums[i] && s < UINT16_MAX)
                    sums[i] = (uint16_t)(s + 1u);
            }
        if (sums[i] > z->q.sums)
            z->q.sums = sums[i];
    }
    gb_free(sums);
    z->q.chain = z->q.sums >= GB_Z3_SUM_CHAIN;
    return 0;
}

/* Nested sums, flattened: Z3's rewriter makes sum(sum(a, b), c) one sum of
 * a, b and c, so a chain r' = r - min(r, 1024) over k steps (a parser
 * skipping a chunk in 1 KiB pieces) became k sums of up to k terms, which
 * the simple solver blasted for seconds past its limit and the guard's
 * interrupt (90 steps: 6.8 s past 500 ms, 1 GiB). Its `flat` option is
 * read only from the process-wide parameters by the simple solver of Z3
 * 4.8.12 (the solver's parameters, the context's and Z3_simplify_ex's do
 * not reach it), so in a chain query a sum that would flatten to
 * GB_Z3_NAME_TERMS or more variable terms (flat_terms) is named: a
 * constant s<k>, defined equal to the sum in each of the query's solvers,
 * stands for it in the terms above, where no rewriter can flatten it
 * (90 steps: 0.6 s, 40-64 MiB). Only such sums: zlib's chains are mostly
 * constant increments, which flattening folds; with every sum named its
 * seed traces' chain queries took 2.3x as long (17 timeouts in 49 instead
 * of 7 in 39), with blocks of 8 terms 1.5x. Flat sums are faster
 * elsewhere (lz4's seed traces took 3.7x as long with them off
 * everywhere), so only chain queries are named, in a table of the query's
 * own, not the trace's cache. The names are string symbols, which Z3
 * keeps for the process's life: s0, s1, ... are the same few in every
 * query. */
static Z3_ast name_sum(gb_z3_t *z, Z3_ast sum)
{
    Z3_context c = z->ctx;
    char name[32];
    snprintf(name, sizeof name, "s%zu", z->q.ndefs);
    Z3_ast v = keep(z, Z3_mk_const(c, Z3_mk_string_symbol(c, name), Z3_get_sort(c, sum)));
    Z3_ast def = v ? keep(z, Z3_mk_eq(c, v, sum)) : NULL;
    Z3_dec_ref(c, sum);
    if (!def) {
        if (v)
            Z3_dec_ref(c, v);
        return NULL;
    }
    z->q.defs[z->q.ndefs++] = def;
    return v;
}

/* The variable terms node x (index i) would be a sum of, flattened: its
 * arguments', a sum's counted as its own (a named one as one term), a
 * constant as none (the rewriter folds constants: a chain of constant
 * increments stays one term). Kept in z->q.flat; 0 for a node not a sum. */
static unsigned flat_terms(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, uint32_t i)
{
    if (x->op != GBT_OP_ADD && x->op != GBT_OP_SUB)
        return 0;
    unsigned n = 0;
    for (unsigned k = 0; k < x->nargs; k++) {
        uint32_t a = x->args[k];
        unsigned op = d->nodes[a].op;
        n += op == GBT_OP_ADD || op == GBT_OP_SUB ? z->q.flat[a] : op != GBT_OP_CONST;
    }
    z->q.flat[i] = (uint16_t)(n < GB_Z3_NAME_TERMS ? n : 1);
    return n;
}

/* A chain query's own table of terms, and room for a definition per node. */
static int own_terms(gb_z3_t *z, size_t n, gb_err_t *e)
{
    z->q.own = gb_calloc(z->terms.ncache, sizeof *z->q.own);
    z->q.defs = gb_malloc((n ? n : 1) * sizeof *z->q.defs);
    z->q.flat = gb_calloc(z->terms.ncache, sizeof *z->q.flat);
    if (!z->q.own || !z->q.defs || !z->q.flat)
        return gb_err_set(e, "out of memory translating a query");
    z->q.term = z->q.own;
    return 0;
}

/* The term of node i, made unless the query has it. */
static int translate_node(gb_z3_t *z, const gb_dag_t *d, uint32_t i, gb_err_t *e)
{
    if (z->q.term[i])
        return 0;
    const gb_node_t *x = &d->nodes[i];
    z->terms.range[i] = node_range(d, z->terms.range, x);
    Z3_ast a = z->terms.no_narrow ? keep(z, translate(z, d, x)) : translate_narrow(z, d, x, i);
    if (a && z->q.chain && flat_terms(z, d, x, i) >= GB_Z3_NAME_TERMS)
        a = name_sum(z, a);
    if (!a)
        return z3_fail(z, "translating a node", e);
    z->q.term[i] = a;
    return 0;
}

/* Makes sure every node reachable from the conjuncts has a term in
 * z->q.term: the trace's cache, or a chain query's own table. */
static int translate_query(gb_z3_t *z, const gb_z3_query_t *q, gb_err_t *e)
{
    drop_query(z);
    if (cache_for(z, q->t, e) != 0)
        return -1;
    z->q.term = z->terms.cache;
    uint32_t *list = NULL;
    size_t n = query_nodes(q, &list);
    if (n == (size_t)-1 || query_facts(z, &q->t->dag, list, n) != 0) {
        gb_free(list);
        return gb_err_set(e, "out of memory translating a query");
    }
    int r = z->q.chain ? own_terms(z, n, e) : 0;
    for (size_t i = 0; i < n && r == 0; i++)
        r = translate_node(z, &q->t->dag, list[i], e);
    gb_free(list);
    return r;
}

/* ---- The guard ------------------------------------------------------- */

/* One thread watches every check of a context while it runs, and stops it
 * with Z3_interrupt (safe from another thread) for three reasons:
 *
 * Memory. Z3 has no limit on one check's memory that its simple solver
 * reads (its global memory_max_size throws out of any call, at any
 * point). So the guard reads Z3's own estimate and interrupts the check,
 * as a timeout would, once Z3 holds more than GB_Z3_GROWTH_MAX_MB +
 * GB_Z3_QUERY_MAX_MB above what the fresh context held (or, in tests, once
 * the check allocated z->mem.query_cap).
 *
 * Time. Checks ran 4-5 s under a 2 s limit on liblzma, and one query's
 * checks 16.5 s (issue 34). So each check has a deadline, whatever timers
 * Z3 was given (try_for covers a tactic, not the solver around it): its
 * window (its limit, cut to what is left of the query's budget and the
 * call's) plus a grace of window / GB_Z3_GRACE_DIV + GB_Z3_GRACE_MS, in
 * which Z3's own timer usually ends it at no cost. Z3 reads the interrupt
 * where it reads its timer, so neither ends a check that is still taking
 * in a large query: that tail remains (bench/RESULTS.md, issue 34).
 *
 * Stop. The caller's stop request (a flag its signal handler sets) or its
 * end of run (-V): the check in progress is interrupted at once, and no
 * other starts, so Ctrl-C no longer waits for a check's limit.
 *
 * An interrupt leaves the context cancelled, so the query's end makes the
 * context anew. The thread exists from a context's first check to
 * gb_z3_free, polls every GB_Z3_GUARD_POLL_MS while a check runs and
 * sleeps between checks.
 *
 * A check may go on allocating after the interrupt (the simple solver
 * blasting a large term reads it only between steps). Nothing can take
 * that memory back from inside Z3, so past the ceiling of
 * gb_z3_set_ceiling the guard ends the process from its own thread, with
 * one line and the caller's exit status. It calls nothing of the caller's:
 * code of another module running beside a thread that is inside Z3 would
 * have to be written for that; what the caller must keep across such an
 * end it records before the check (generational/ brackets each expansion
 * in its journal; docs/reliability.md). */
enum { GB_GUARD_NONE, GB_GUARD_MEMORY, GB_GUARD_TIME, GB_GUARD_STOP };

struct gb_z3_guard {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int armed, fired, quit; /* fired: why the check was interrupted (GB_GUARD_*) */
    Z3_context ctx; /* the checking context, while armed */
    size_t limit;   /* Z3's estimate that stops the check */
    uint64_t deadline; /* gb_mono_ms at which the check is stopped */
    const volatile sig_atomic_t *stop; /* the caller's stop request, or NULL */
    uint64_t stop_at; /* gb_mono_ms at which any check is stopped; 0 = never */
    size_t ceiling; /* Z3's estimate that ends the process (0 = none) */
    int ceiling_exit;
    const char *ceiling_what; /* the bridge's copy, alive while the guard is */
};

/* Past the ceiling: one line, then the process ends. write(2), not stdio:
 * the main thread may hold stderr's lock. */
static void guard_end_process(const struct gb_z3_guard *g, size_t bytes)
{
    char line[256];
    int n = snprintf(line, sizeof line,
                     "%s (%zu MiB; it held %zu) in a check, which only the process's end "
                     "stops; exiting with status %d\n",
                     g->ceiling_what, g->ceiling >> 20, (bytes + (1u << 20) - 1) >> 20,
                     g->ceiling_exit);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        n = 0; /* nothing else to tell */
    _exit(g->ceiling_exit);
}

static int stop_requested(const volatile sig_atomic_t *stop, uint64_t stop_at, uint64_t now)
{
    return (stop && *stop) || (stop_at && now >= stop_at);
}

/* Why the armed check must stop now, or GB_GUARD_NONE. */
static int guard_reason(const struct gb_z3_guard *g, size_t bytes)
{
    uint64_t now = gb_mono_ms();
    if (stop_requested(g->stop, g->stop_at, now))
        return GB_GUARD_STOP;
    if (bytes > g->limit)
        return GB_GUARD_MEMORY;
    return now >= g->deadline ? GB_GUARD_TIME : GB_GUARD_NONE;
}

static void *guard_main(void *arg)
{
    struct gb_z3_guard *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->quit) {
        if (!g->armed) {
            pthread_cond_wait(&g->cv, &g->mu);
            continue;
        }
        size_t now = Z3_get_estimated_alloc_size();
        if (!g->fired && (g->fired = guard_reason(g, now)) != GB_GUARD_NONE)
            Z3_interrupt(g->ctx); /* only while armed: the check is running */
        if (g->ceiling && now > g->ceiling)
            guard_end_process(g, now);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += GB_Z3_GUARD_POLL_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&g->cv, &g->mu, &ts);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* The guard of `z`, started on first use; NULL if no thread could be made
 * (checks then run unguarded, as before the guard). */
static struct gb_z3_guard *guard_get(gb_z3_t *z)
{
    if (z->guard)
        return z->guard;
    struct gb_z3_guard *g = gb_calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    /* The thread starts with every signal blocked: a signal for the process
     * (SIGINT, SIGCHLD, SIGALRM) must reach the thread that handles it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int made = pthread_create(&g->thread, NULL, guard_main, g);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (made != 0) {
        pthread_cond_destroy(&g->cv);
        pthread_mutex_destroy(&g->mu);
        gb_free(g);
        return NULL;
    }
    return z->guard = g;
}

static void guard_stop(gb_z3_t *z)
{
    struct gb_z3_guard *g = z->guard;
    if (!g)
        return;
    pthread_mutex_lock(&g->mu);
    g->quit = 1;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->thread, NULL);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    gb_free(g);
    z->guard = NULL;
}

static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* gb_z3_set_check_log: one line per check, its wall time against its
 * window (check_window), for bench/solver (the distribution of overruns). */
static void log_check(gb_z3_t *z, uint64_t us, unsigned limit_ms, Z3_lbool r)
{
    fprintf(z->check_log, "check %.3f ms limit %u ms %s\n", (double)us / 1000.0, limit_ms,
            r == Z3_L_TRUE ? "sat" : r == Z3_L_FALSE ? "unsat" : "undef");
}

void gb_z3_set_check_log(gb_z3_t *z, FILE *f) { z->check_log = f; }

void gb_z3_set_stop(gb_z3_t *z, const volatile sig_atomic_t *flag, uint64_t end_ms)
{
    z->clock.stop = flag;
    z->clock.stop_at = end_ms;
}

void gb_z3_set_query_end(gb_z3_t *z, uint64_t end_ms) { z->clock.query_end = end_ms; }

uint64_t gb_z3_overruns(const gb_z3_t *z) { return z ? z->clock.overruns : 0; }

static uint64_t earlier(uint64_t a, uint64_t b) { return !b || (a && a < b) ? a : b; }

/* The milliseconds a check asked to run limit_ms may have from `now`: cut
 * to the query's budget, the call's and the caller's end of run; 0 when
 * none is left or a stop was requested (the check is not started). */
static unsigned check_window(const gb_z3_t *z, unsigned limit_ms, uint64_t now)
{
    if (z->clock.cut || stop_requested(z->clock.stop, z->clock.stop_at, now))
        return 0;
    uint64_t end = earlier(earlier(now + limit_ms, z->clock.query_end),
                           earlier(z->clock.call_end, z->clock.stop_at));
    return end > now ? (unsigned)(end - now) : 0;
}

/* A simple solver reads its `timeout` at each check: given the window, so
 * that Z3's own timer ends the check before the guard must (an interrupt
 * costs the context). Never on a tactic solver: two Z3 timers on one
 * check deadlocked (mk_solver_for). */
static void set_timeout(gb_z3_t *z, Z3_solver s, unsigned ms)
{
    Z3_context c = z->ctx;
    Z3_params p = Z3_mk_params(c);
    if (!p || z3_failed)
        return;
    Z3_params_inc_ref(c, p);
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), ms);
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
}

/* Arms the guard for a check of window `ms` from `now`. */
static void guard_arm(gb_z3_t *z, struct gb_z3_guard *g, unsigned ms, uint64_t now)
{
    pthread_mutex_lock(&g->mu);
    g->ctx = z->ctx;
    /* from the fresh context's level, see GB_Z3_QUERY_MAX_MB; a test's
     * cap counts from the check's start */
    size_t cap = (size_t)(GB_Z3_GROWTH_MAX_MB + GB_Z3_QUERY_MAX_MB) << 20;
    g->limit = z->mem.query_cap ? Z3_get_estimated_alloc_size() + z->mem.query_cap
                                : z->mem.base_bytes + cap;
    g->deadline = now + ms + ms / GB_Z3_GRACE_DIV + GB_Z3_GRACE_MS;
    g->stop = z->clock.stop;
    g->stop_at = z->clock.stop_at;
    g->fired = GB_GUARD_NONE;
    g->ceiling = z->mem.ceiling;
    g->ceiling_exit = z->mem.ceiling_exit;
    g->ceiling_what = z->mem.ceiling_what;
    g->armed = 1;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Disarms the guard; what it did to the check goes into z. */
static void guard_disarm(gb_z3_t *z, struct gb_z3_guard *g)
{
    pthread_mutex_lock(&g->mu);
    g->armed = 0;
    if (g->fired != GB_GUARD_NONE) {
        z->clock.killed = z->clock.cut = 1;
        z->mem.memout |= g->fired == GB_GUARD_MEMORY;
        z->clock.overruns += g->fired == GB_GUARD_TIME;
    }
    pthread_mutex_unlock(&g->mu);
}

/* Z3_solver_check_assumptions (or Z3_solver_check when `as` is NULL)
 * under the guard, for at most limit_ms (the limit Z3 was given; a
 * `simple` solver gets a shorter one when its window is shorter). A check
 * the guard stopped answers UNDEF and cuts the call: its later checks are
 * not run, since the context stays cancelled; neither are checks with no
 * window left (check_window). */
static Z3_lbool guarded_check(gb_z3_t *z, Z3_solver s, int simple, unsigned limit_ms, unsigned n,
                              const Z3_ast *as)
{
    uint64_t now = gb_mono_ms();
    unsigned ms = check_window(z, limit_ms, now);
    if (ms == 0) {
        z->clock.cut = 1;
        return Z3_L_UNDEF;
    }
    if (simple && ms < limit_ms)
        set_timeout(z, s, ms);
    struct gb_z3_guard *g = guard_get(z);
    if (g)
        guard_arm(z, g, ms, now);
    uint64_t t0 = z->check_log ? mono_us() : 0;
    Z3_lbool r = as ? Z3_solver_check_assumptions(z->ctx, s, n, as) : Z3_solver_check(z->ctx, s);
    if (z->check_log)
        log_check(z, mono_us() - t0, ms, r);
    if (g)
        guard_disarm(z, g);
    return z->clock.killed ? Z3_L_UNDEF : r;
}

/* At a query's end: a context a guard stopped is made anew, and so is one
 * that grew by more than GB_Z3_GROWTH_MAX_MB (within a trace as well as
 * between traces: one trace's queries grew Z3 from 17 to 61 MiB). The
 * translated terms go with the old context; the next query translates
 * its slice again. */
static int end_query(gb_z3_t *z, gb_err_t *e)
{
    drop_query(z);
    z->clock.cut = 0;
    z->clock.call_end = 0;
    if (z->clock.killed) {
        z->mem.memouts += z->mem.memout != 0;
        z->clock.killed = z->mem.memout = 0;
        return renew(z, e) < 0 ? -1 : 0;
    }
    return gb_z3_renew_if_over(z, (size_t)GB_Z3_GROWTH_MAX_MB << 20, e) < 0 ? -1 : 0;
}

/* ---- Checking -------------------------------------------------------- */

/* `made` referenced (unless NULL) in place of `held`, released (unless
 * NULL): `made` holds its own reference to what it was made from. */
static Z3_tactic hold_tactic(Z3_context c, Z3_tactic held, Z3_tactic made)
{
    if (made && !z3_failed)
        Z3_tactic_inc_ref(c, made);
    else
        made = NULL;
    if (held)
        Z3_tactic_dec_ref(c, held);
    return made;
}

/* Tactic t with its rewriter's `flat` off: a tactic, unlike the simple
 * solver, reads it from its own parameters (a chain query, name_sum). */
static Z3_tactic unflat(gb_z3_t *z, Z3_tactic t)
{
    Z3_context c = z->ctx;
    Z3_params p = Z3_mk_params(c);
    if (!p || z3_failed)
        return NULL;
    Z3_params_inc_ref(c, p);
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "flat"), false);
    Z3_tactic u = Z3_tactic_using_params(c, t, p);
    Z3_params_dec_ref(c, p);
    return u;
}

/* A solver made from a tactic; a tactic does not read the solver's
 * timeout, so try_for bounds it (and the solver gets none: mk_solver_for). Floating point goes to QF_FPBV's tactic
 * (fpa2bv, then the bit-vector preprocessing and SAT): the simple solver's
 * FP theory took 10-50 s on queries this answers in 0.5-2 s (a strtod
 * parse, fp.div). Bit-blasting (below) uses qfbv. */
static Z3_solver mk_tactic_solver(gb_z3_t *z, const char *name, unsigned timeout_ms)
{
    Z3_context c = z->ctx;
    Z3_tactic t = hold_tactic(c, NULL, Z3_mk_tactic(c, name));
    if (t && z->q.chain)
        t = hold_tactic(c, t, unflat(z, t));
    if (t && timeout_ms)
        t = hold_tactic(c, t, Z3_tactic_try_for(c, t, timeout_ms));
    Z3_solver s = t && !z3_failed ? Z3_mk_solver_from_tactic(c, t) : NULL;
    hold_tactic(c, t, NULL);
    return z3_failed ? NULL : s;
}

/* `blast`: the qfbv tactic, else the query's usual solver. The simple
 * solver skips the logic-specific tactic setup, which cost ~1 ms per query
 * and dominated small queries; the queries are QF_BV all the same, and the
 * timeout still applies. */
static Z3_solver mk_solver_for(gb_z3_t *z, int blast, unsigned timeout_ms)
{
    Z3_context c = z->ctx;
    Z3_solver s = blast     ? mk_tactic_solver(z, "qfbv", timeout_ms)
                  : z->q.fp ? mk_tactic_solver(z, "qffpbv", timeout_ms)
                            : Z3_mk_simple_solver(c);
    if (!s || z3_failed)
        return NULL;
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    if (!p || z3_failed) {
        Z3_solver_dec_ref(c, s);
        return NULL;
    }
    Z3_params_inc_ref(c, p);
    /* A tactic solver's limit is its try_for alone. With the solver's
     * timeout too, a check ran two of Z3's timers, one inside the other;
     * when the outer one fired first (a limit of 1 ms) Z3 4.8.12 gave its
     * timer thread to the inner one while the check still held it, and
     * the check waited on itself forever (a worker hung for 35 minutes in
     * bench/soak; symbolic_bounds z3_timers). */
    if (!blast && !z->q.fp)
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms);
    /* Else every check swaps in Z3's own SIGINT handler, which cancels the
     * check and swallows the signal: Ctrl-C never reached the caller. Only
     * this solver parameter works in 4.8.12; the global one and the
     * context's are not read by a check (measured with strace). */
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
    for (size_t k = 0; k < z->q.ndefs && !z3_failed; k++) /* a chain's named sums */
        Z3_solver_assert(c, s, z->q.defs[k]);
    if (z3_failed) {
        Z3_solver_dec_ref(c, s);
        return NULL;
    }
    return s;
}

Z3_solver gb_z3_mk_blast_solver(gb_z3_t *z, unsigned timeout_ms)
{
    return mk_solver_for(z, 1, timeout_ms);
}

static Z3_solver mk_solver(gb_z3_t *z, unsigned timeout_ms)
{
    return mk_solver_for(z, 0, timeout_ms);
}

/* The model's values of the INPUT nodes v->nodes[i], into v->vals[i]. */
static int read_model(gb_z3_t *z, Z3_solver s, const gb_z3_vars_t *v, gb_err_t *e)
{
    Z3_context c = z->ctx;
    Z3_model m = Z3_solver_get_model(c, s);
    if (!m || z3_failed)
        return z3_fail(z, "getting a model", e);
    Z3_model_inc_ref(c, m);
    int r = 0;
    for (size_t i = 0; i < v->n && r == 0; i++) {
        Z3_ast val = NULL;
        uint64_t u = 0;
        Z3_ast var = v->nodes[i] < z->terms.ncache ? z->q.term[v->nodes[i]] : NULL;
        if (!var || !Z3_model_eval(c, m, var, true, &val) || !val ||
            !Z3_get_numeral_uint64(c, val, &u) || z3_failed)
            r = z3_fail(z, "reading a model value", e);
        v->vals[i] = (uint8_t)u;
    }
    Z3_model_dec_ref(c, m);
    return r;
}

/* Assumption literal i is the Boolean constant named by the integer i, so
 * a core maps back to conjunct indices without a search. */
static int core_indices(Z3_context c, Z3_solver s, size_t nc, uint32_t *idx, size_t *n)
{
    Z3_ast_vector core = Z3_solver_get_unsat_core(c, s);
    *n = 0;
    if (!core || z3_failed)
        return -1;
    Z3_ast_vector_inc_ref(c, core);
    unsigned k = Z3_ast_vector_size(c, core);
    for (unsigned i = 0; i < k && !z3_failed; i++) {
        Z3_ast a = Z3_ast_vector_get(c, core, i);
        Z3_symbol sym = Z3_get_decl_name(c, Z3_get_app_decl(c, Z3_to_app(c, a)));
        int v = Z3_get_symbol_kind(c, sym) == Z3_INT_SYMBOL ? Z3_get_symbol_int(c, sym) : -1;
        if (v >= 0 && (size_t)v < nc)
            idx[(*n)++] = (uint32_t)v;
    }
    Z3_ast_vector_dec_ref(c, core);
    return z3_failed ? -1 : 0;
}

/* Conjunct cj as a Z3 term: its node equals its value. */
static Z3_ast conj_eq(gb_z3_t *z, const gb_conj_t *cj)
{
    return Z3_mk_eq(z->ctx, z->q.term[cj->node], cj->value ? z->one : z->zero);
}

/* Asserts the conjuncts: hard ones as they are (Z3 simplifies with them:
 * a pinned byte becomes a constant), the soft ones and, when `all`, the
 * hard ones too as lit_i => conjunct_i. lits[i] is lit_i or NULL
 * (referenced; released by the caller). */
static int assert_query(gb_z3_t *z, Z3_solver s, const gb_conj_t *cj, size_t nc, int all,
                        Z3_ast *lits)
{
    Z3_context c = z->ctx;
    Z3_sort bs = Z3_mk_bool_sort(c);
    for (size_t i = 0; i < nc && !z3_failed; i++) {
        Z3_ast eq = conj_eq(z, &cj[i]);
        if (!cj[i].soft && !all) {
            Z3_solver_assert(c, s, eq);
            continue;
        }
        Z3_inc_ref(c, eq);
        lits[i] = Z3_mk_const(c, Z3_mk_int_symbol(c, (int)i), bs);
        Z3_inc_ref(c, lits[i]);
        Z3_ast imp = Z3_mk_implies(c, lits[i], eq);
        Z3_inc_ref(c, imp);
        Z3_solver_assert(c, s, imp);
        Z3_dec_ref(c, imp);
        Z3_dec_ref(c, eq);
    }
    return z3_failed ? -1 : 0;
}

/* Removes from the active assumptions act[0..*na) those named in the core
 * (all soft: hard conjuncts have no literal here); returns how many. */
static size_t drop_soft(const uint32_t *core, size_t ncore, uint32_t *act, size_t *na)
{
    size_t d = 0;
    for (size_t k = 0; k < ncore; k++)
        for (size_t i = 0; i < *na; i++)
            if (act[i] == core[k]) {
                act[i] = act[--*na];
                d++;
                break;
            }
    return d;
}

/* Length preferences (docs/trace-format.md, "Input length"). A query over
 * the length variable L would otherwise get whatever length Z3 likes
 * (often millions of bytes for `off + n <= L`). So the query is first
 * checked with L = the traced input's length, then L <= len + 64, then
 * L <= 2 len + 1024, L <= 8 len + 8 KiB, L <= 64 len + 64 KiB, then
 * L <= 1 MiB, then with no bound: each an
 * assumption literal (int symbol nc + k) that is relaxed when it is in the
 * unsat core. These only choose among models of the exact query, so
 * relaxing them never makes an answer optimistic. */
#define GB_LEN_PREFS 6
#define GB_LEN_PREF_MAX GB_MAX_INPUT /* no input is longer */

static size_t len_prefs(gb_z3_t *z, Z3_solver s, const gb_z3_query_t *q, const gb_z3_vars_t *vs,
                        Z3_ast *pl)
{
    Z3_context c = z->ctx;
    size_t nc = q->nc;
    int uses_len = 0;
    for (size_t i = 0; i < vs->n; i++)
        uses_len |= gbt_is_len_offset(q->t->dag.nodes[vs->nodes[i]].imm);
    if (!uses_len)
        return 0;
    gb_trace_info_t info;
    gb_trace_get_info(q->t, &info);
    const uint64_t lmax = ((uint64_t)1 << (8 * GBT_LEN_BYTES)) - 1;
    uint64_t p = info.input_len < lmax ? info.input_len : lmax;
    /* Z3 tends to pick a bound itself: without the middle steps a chunk
     * length of 14592 made a 1 MiB input (a third of the demo's queue). */
    uint64_t bound[GB_LEN_PREFS] = {p,        p + 64, 2 * p + 1024, 8 * p + 8192, 64 * p + 65536,
                                    GB_LEN_PREF_MAX};
    Z3_sort b8 = bv_sort(z, 8), bl = bv_sort(z, 8 * GBT_LEN_BYTES);
    Z3_ast len = NULL;
    for (unsigned k = 0; k < GBT_LEN_BYTES && !z3_failed; k++) {
        Z3_ast byte = Z3_mk_const(c, byte_symbol(c, (uint64_t)GBT_LEN_OFFSET + k), b8);
        Z3_ast nl = len ? Z3_mk_concat(c, byte, len) : byte;
        Z3_inc_ref(c, nl);
        if (len)
            Z3_dec_ref(c, len);
        len = nl;
    }
    size_t n = 0;
    for (unsigned k = 0; k < GB_LEN_PREFS && len && !z3_failed; k++) {
        Z3_ast v = Z3_mk_unsigned_int64(c, bound[k] < lmax ? bound[k] : lmax, bl);
        Z3_inc_ref(c, v);
        Z3_ast cond = k == 0 ? Z3_mk_eq(c, len, v) : Z3_mk_bvule(c, len, v);
        Z3_inc_ref(c, cond);
        pl[n] = Z3_mk_const(c, Z3_mk_int_symbol(c, (int)(nc + n)), Z3_mk_bool_sort(c));
        Z3_inc_ref(c, pl[n]);
        Z3_ast imp = Z3_mk_implies(c, pl[n], cond);
        Z3_inc_ref(c, imp);
        Z3_solver_assert(c, s, imp);
        Z3_dec_ref(c, imp);
        Z3_dec_ref(c, cond);
        Z3_dec_ref(c, v);
        n++;
    }
    if (len)
        Z3_dec_ref(c, len);
    return n;
}

/* One gb_z3_check call: what it was asked, and its working state. */
typedef struct z3_call {
    const gb_z3_query_t *q;
    const gb_z3_vars_t *v;
    const gb_z3_limits_t *lim;
    gb_z3_out_t *o;
    uint64_t t0;   /* gb_mono_ms when its checks began */
    Z3_solver s;   /* the simple (or FP) solver of its rounds, or NULL */
    Z3_ast *lits;  /* lits[i]: conjunct i's literal, or NULL (assert_query) */
    Z3_ast *as;    /* a check's assumptions */
    uint32_t *act; /* the soft conjuncts still active: act[0..na) */
    size_t na;
    uint32_t *core;          /* a check's unsat core: room for nc + 1 */
    Z3_ast pl[GB_LEN_PREFS]; /* the length preferences (len_prefs), referenced */
    size_t npl, lvl;         /* how many; the one in force */
} z3_call_t;

/* What is left of the call's time limit, in ms (may be negative). */
static int64_t time_left(const z3_call_t *k)
{
    return (int64_t)k->lim->timeout_ms - (int64_t)(gb_mono_ms() - k->t0);
}

/* The check loop on k->s: the soft conjuncts k->act[0..na) as assumptions;
 * while UNSAT with some in the core, drop those and check again, each check
 * for lim_ms. The current length preference pl[lvl] is an assumption too;
 * when it is in the core, the next (weaker) one replaces it before any
 * soft conjunct is dropped. k->na and k->lvl say where it stopped. */
static Z3_lbool check_loop(gb_z3_t *z, z3_call_t *k, unsigned lim_ms)
{
    Z3_context c = z->ctx;
    size_t nc = k->q->nc;
    Z3_lbool res = Z3_L_UNDEF;
    for (unsigned round = 0; round < GB_MAX_CORE_ROUNDS + GB_LEN_PREFS && !z3_failed; round++) {
        for (size_t i = 0; i < k->na; i++)
            k->as[i] = k->lits[k->act[i]];
        size_t nas = k->na;
        if (k->lvl < k->npl)
            k->as[nas++] = k->pl[k->lvl];
        ++k->o->checks;
        res = guarded_check(z, k->s, !z->q.fp, lim_ms, (unsigned)nas, k->as);
        if (res != Z3_L_FALSE || nas == 0)
            break;
        size_t ncore = 0, d = 0;
        if (core_indices(c, k->s, nc + k->npl, k->core, &ncore) != 0)
            break;
        int pref_in_core = 0;
        for (size_t i = 0; i < ncore; i++)
            pref_in_core |= k->core[i] >= nc;
        if (pref_in_core)
            k->lvl++;
        else if ((d = drop_soft(k->core, ncore, k->act, &k->na)) == 0)
            break; /* the hard conjuncts alone conflict */
        k->o->dropped += d;
        res = Z3_L_UNDEF;
    }
    return res;
}

/* The hard conjuncts conflict. The clause to learn is the unsat core of a
 * check with every hard conjunct as an assumption; assumptions keep Z3 from
 * simplifying with them, which can make that check far slower than the
 * query, so it gets its own short time limit (core_ms). Without a core,
 * the clause is every hard conjunct (sound, only less general). */
static void find_core(gb_z3_t *z, const gb_z3_query_t *q, unsigned core_ms, gb_z3_out_t *o)
{
    Z3_context c = z->ctx;
    const gb_conj_t *cj = q->cj;
    size_t nc = q->nc;
    size_t nh = 0;
    for (size_t i = 0; i < nc; i++)
        if (!cj[i].soft)
            o->core[nh++] = (uint32_t)i;
    o->ncore = nh;
    if (nh < 2 || !core_ms)
        return;
    gb_conj_t *hard = gb_malloc(nh * sizeof *hard);
    Z3_ast *lits = gb_calloc(nh, sizeof *lits);
    uint32_t *k = gb_malloc(nh * sizeof *k);
    Z3_solver s = hard && lits && k ? mk_solver(z, core_ms) : NULL;
    if (s) {
        for (size_t i = 0; i < nh; i++)
            hard[i] = (gb_conj_t){cj[o->core[i]].node, cj[o->core[i]].value, 1};
        size_t nk = 0;
        ++o->checks;
        if (assert_query(z, s, hard, nh, 1, lits) == 0 &&
            guarded_check(z, s, !z->q.fp, core_ms, (unsigned)nh, lits) == Z3_L_FALSE &&
            core_indices(c, s, nh, k, &nk) == 0 && nk > 0) {
            for (size_t i = 0; i < nk; i++) /* indices into hard[] -> into cj[] */
                k[i] = o->core[k[i]];
            memcpy(o->core, k, nk * sizeof *k);
            o->ncore = nk;
            o->core_found = 1;
        }
        Z3_solver_dec_ref(c, s);
    }
    for (size_t i = 0; lits && i < nh; i++)
        if (lits[i])
            Z3_dec_ref(c, lits[i]);
    gb_free(hard);
    gb_free(lits);
    gb_free(k);
    z3_failed = 0; /* a failed refinement only loses generality */
}

/* The kept bytes among the query's variables, as hard equalities. */
static void assert_keep(gb_z3_t *z, Z3_solver s, const gb_trace_t *t, const gb_z3_vars_t *vs)
{
    Z3_context c = z->ctx;
    for (size_t i = 0; i < vs->n && z->keep.n && !z3_failed; i++) {
        uint64_t off = t->dag.nodes[vs->nodes[i]].imm;
        size_t lo = gb_lower_u64(z->keep.off, z->keep.n, off);
        Z3_ast v = vs->nodes[i] < z->terms.ncache ? z->q.term[vs->nodes[i]] : NULL;
        if (lo < z->keep.n && z->keep.off[lo] == off && v)
            Z3_solver_assert(
                c, s, Z3_mk_eq(c, v, Z3_mk_unsigned_int64(c, z->keep.val[lo], bv_sort(z, 8))));
    }
}

/* ---- Bit-blasting ------------------------------------------------------
 * The simple solver (Z3's SMT core, no preprocessing) is the fastest on
 * most flips. Some queries take it seconds that Z3's qfbv tactic
 * (simplify, solve equations, bit-blast, SAT) answers in milliseconds:
 * slices of 100-200 conjuncts over one or two bytes, as a hex-digit parse
 * in sscanf makes. But the tactic is slower on the rest (zlib's
 * 700-conjunct UNSAT queries), and with unsat cores turned on, which
 * check_loop's relaxation needs, it lost its speed (lz4 45 s -> 405 s;
 * bench/RESULTS.md, session 16). So a flip's query goes to the simple
 * solver with 1/GB_Z3_SIMPLE_SHARE of its time limit per check, and when
 * that runs out, the round it was on goes to the tactic for the rest of
 * the limit (o->blasted); if the tactic finds that round UNSAT while soft
 * conjuncts or weaker length preferences remain, it has no core to relax
 * by, so it drops them all and tries once more (an optimistic answer, as
 * check_loop's would be). A quarter instead of an eighth for the simple
 * solver, or no second round, lost answers on libpng (bench/RESULTS.md).
 * The caller remembers the (site, direction) and asks for the tactic
 * first there next time (o->bitblast). The share is GB_Z3_SIMPLE_SHARE
 * (gb_config.h). */

/* One round of check_loop as the tactic, for at most timeout_ms: the hard
 * conjuncts, the soft ones k->act[0..na) as hard, the kept bytes and
 * length preference `lvl`. 1: SAT, the model in k->v->vals; 2: UNSAT and
 * exact (no soft conjunct, no weaker preference left); 0: anything else;
 * -1 with `e`. */
static int blast_round(gb_z3_t *z, z3_call_t *k, size_t na, size_t lvl, unsigned timeout_ms,
                       gb_err_t *e)
{
    Z3_context c = z->ctx;
    const gb_z3_query_t *q = k->q;
    unsigned ms = check_window(z, timeout_ms, gb_mono_ms()); /* try_for: the tactic's one timer */
    if (ms == 0) {
        z->clock.cut = 1;
        return 0;
    }
    Z3_solver s = mk_solver_for(z, 1, ms);
    if (!s) {
        z3_failed = 0;
        return 0;
    }
    for (size_t i = 0; i < q->nc && !z3_failed; i++)
        if (!q->cj[i].soft)
            Z3_solver_assert(c, s, conj_eq(z, &q->cj[i]));
    for (size_t i = 0; i < na && !z3_failed; i++)
        Z3_solver_assert(c, s, conj_eq(z, &q->cj[k->act[i]]));
    assert_keep(z, s, q->t, k->v);
    Z3_ast pl[GB_LEN_PREFS];
    size_t npl = z3_failed ? 0 : len_prefs(z, s, q, k->v, pl);
    if (lvl < npl && !z3_failed)
        Z3_solver_assert(c, s, pl[lvl]);
    ++k->o->checks;
    Z3_lbool res = z3_failed ? Z3_L_UNDEF : guarded_check(z, s, 0, ms, 0, NULL);
    int r = 0;
    if (res == Z3_L_TRUE && !z3_failed)
        r = read_model(z, s, k->v, e) == 0 ? 1 : -1;
    else if (res == Z3_L_FALSE && !z3_failed)
        r = na == 0 && lvl + 1 >= npl ? 2 : 0;
    for (size_t i = 0; i < npl; i++)
        Z3_dec_ref(c, pl[i]);
    Z3_solver_dec_ref(c, s);
    if (r >= 0)
        z3_failed = 0; /* a failed tactic only loses its answer */
    k->o->blasted |= r > 0;
    return r;
}

/* The call's working arrays, every soft conjunct active; 0 or -1 (out of
 * memory) with `e`. */
static int call_open(z3_call_t *k, gb_err_t *e)
{
    size_t m = k->q->nc ? k->q->nc : 1;
    k->lits = gb_calloc(m, sizeof *k->lits);
    k->as = gb_malloc((m + 1) * sizeof *k->as);
    k->act = gb_malloc(m * sizeof *k->act);
    k->core = gb_malloc((m + 1) * sizeof *k->core);
    if (!k->lits || !k->as || !k->act || !k->core)
        return gb_err_set(e, "out of memory");
    for (size_t i = 0; i < k->q->nc; i++)
        if (k->q->cj[i].soft)
            k->act[k->na++] = (uint32_t)i;
    return 0;
}

static void drop_solver(gb_z3_t *z, z3_call_t *k)
{
    if (k->s)
        Z3_solver_dec_ref(z->ctx, k->s);
    k->s = NULL;
}

/* Releases what call_open and the rounds made. */
static void call_close(gb_z3_t *z, z3_call_t *k)
{
    drop_solver(z, k);
    for (size_t i = 0; k->lits && i < k->q->nc; i++)
        if (k->lits[i])
            Z3_dec_ref(z->ctx, k->lits[i]);
    for (size_t i = 0; i < k->npl; i++)
        Z3_dec_ref(z->ctx, k->pl[i]);
    gb_free(k->lits);
    gb_free(k->as);
    gb_free(k->act);
    gb_free(k->core);
}

/* The simple solver's rounds (check_loop), each check for ms; when they
 * run out of time on a query that may be blasted (`blast`), the tactic
 * for what is left of the call's limit: on the round the loop was on, then
 * with every soft conjunct and weaker length preference dropped. The
 * tactic's answer as blast_round's, or 0 with *res the loop's. */
static int simple_rounds(gb_z3_t *z, z3_call_t *k, int blast, unsigned ms, Z3_lbool *res,
                         gb_err_t *e)
{
    const gb_z3_query_t *q = k->q;
    k->s = mk_solver(z, ms ? ms : 1);
    if (!k->s)
        return z3_fail(z, "creating a solver", e);
    if (assert_query(z, k->s, q->cj, q->nc, 0, k->lits) != 0)
        return 0;
    assert_keep(z, k->s, q->t, k->v);
    k->npl = len_prefs(z, k->s, q, k->v, k->pl);
    *res = check_loop(z, k, ms ? ms : 1);
    int64_t left = time_left(k);
    if (*res != Z3_L_UNDEF || !blast || z3_failed || z->clock.cut || left < 1)
        return 0;
    int got = blast_round(z, k, k->na, k->lvl, (unsigned)left, e);
    left = time_left(k);
    if (got == 0 && !z->clock.cut && left >= 1 && (k->na > 0 || k->lvl + 1 < k->npl)) {
        got = blast_round(z, k, 0, k->npl ? k->npl - 1 : 0, (unsigned)left, e);
        k->o->dropped += got == 1 ? k->na : 0;
    }
    return got;
}

/* The call's answer into k->o->status (a model into k->v->vals): the
 * tactic's (`got`, as blast_round's), else the simple solver's (`res`). */
static int call_answer(gb_z3_t *z, z3_call_t *k, int got, Z3_lbool res, gb_err_t *e)
{
    gb_z3_out_t *o = k->o;
    if (got < 0)
        return -1;
    if (got) {
        o->status = got == 1 ? GB_Q_SAT : GB_Q_UNSAT;
        return 0;
    }
    if (z3_failed)
        return z3_fail(z, "checking a query", e);
    if (res == Z3_L_TRUE) {
        o->status = GB_Q_SAT;
        return read_model(z, k->s, k->v, e);
    }
    o->status = res == Z3_L_FALSE ? GB_Q_UNSAT : GB_Q_TIMEOUT;
    return 0;
}

/* The query's answer: the tactic first when the caller asks
 * (lim->bitblast), then the simple solver's rounds (simple_rounds). */
static int call_solve(gb_z3_t *z, z3_call_t *k, gb_err_t *e)
{
    const gb_z3_limits_t *lim = k->lim;
    /* bit-blasting is for a flip's query (one with variables to read),
     * not the neighbour checks, which are there for their cores */
    int blast = !z->q.fp && !z->q.varmul && k->v->n > 0 && lim->timeout_ms >= GB_Z3_SIMPLE_SHARE;
    int64_t left = lim->timeout_ms;
    int got = 0;
    k->t0 = gb_mono_ms();
    if (blast && lim->bitblast) {
        got = blast_round(z, k, k->na, 0, lim->timeout_ms, e);
        blast = 0;
        left = time_left(k);
        if (got == 0 && left < 1) {
            k->o->status = GB_Q_TIMEOUT;
            return 0;
        }
    }
    Z3_lbool res = Z3_L_UNDEF;
    if (!got) {
        unsigned ms = blast ? lim->timeout_ms / GB_Z3_SIMPLE_SHARE : (unsigned)left;
        got = simple_rounds(z, k, blast, ms, &res, e);
    }
    return call_answer(z, k, got, res, e);
}

int gb_z3_check(gb_z3_t *z, const gb_z3_query_t *q, const gb_z3_vars_t *v,
                const gb_z3_limits_t *lim, gb_z3_out_t *o, gb_err_t *e)
{
    z3_failed = 0;
    *o = (gb_z3_out_t){.status = GB_Q_TIMEOUT, .core = o->core};
    if (translate_query(z, q, e) != 0)
        return -1;
    /* all the call's checks share its limit (a query had up to 22 of them) */
    z->clock.call_end = gb_mono_ms() + lim->timeout_ms;
    o->varmul = z->q.varmul && !z->q.fp && v->n > 0;
    z3_call_t k = {.q = q, .v = v, .lim = lim, .o = o};
    int r = call_open(&k, e);
    if (r == 0)
        r = call_solve(z, &k, e);
    drop_solver(z, &k);
    z->clock.call_end = 0; /* the core has its own limit (core_ms), within the query's budget */
    if (r == 0 && o->status == GB_Q_UNSAT && o->core && !z->keep.n)
        find_core(z, q, lim->core_ms, o);
    call_close(z, &k);
    if (end_query(z, e) != 0 && r == 0)
        r = -1;
    return r;
}

int gb_z3_holds(gb_z3_t *z, const gb_z3_query_t *q, const gb_z3_vars_t *v, unsigned timeout_ms,
                gb_qstatus_t *st, gb_err_t *e)
{
    z3_failed = 0;
    if (translate_query(z, q, e) != 0)
        return -1;
    Z3_context c = z->ctx;
    Z3_solver s = mk_solver(z, timeout_ms);
    if (!s)
        return z3_fail(z, "creating a solver", e);
    for (size_t i = 0; i < q->nc && !z3_failed; i++)
        Z3_solver_assert(c, s, conj_eq(z, &q->cj[i]));
    for (size_t i = 0; i < v->n && !z3_failed; i++) {
        Z3_ast a = v->nodes[i] < z->terms.ncache ? z->q.term[v->nodes[i]] : NULL;
        if (a) /* a byte no conjunct reads is free anyway */
            Z3_solver_assert(c, s,
                             Z3_mk_eq(c, a, Z3_mk_unsigned_int64(c, v->vals[i], bv_sort(z, 8))));
    }
    Z3_lbool res = z3_failed ? Z3_L_UNDEF : guarded_check(z, s, !z->q.fp, timeout_ms, 0, NULL);
    int r = z3_failed ? z3_fail(z, "checking a model", e) : 0;
    *st = res == Z3_L_TRUE ? GB_Q_SAT : res == Z3_L_FALSE ? GB_Q_UNSAT : GB_Q_TIMEOUT;
    Z3_solver_dec_ref(c, s);
    if (end_query(z, e) != 0 && r == 0)
        r = -1;
    return r;
}
