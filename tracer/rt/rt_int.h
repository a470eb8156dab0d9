/* SPDX-License-Identifier: Apache-2.0 */
/* Private interface of the trace runtime linked into --mode=trace targets.
 * Everything here has hidden visibility; only the __gb_* entry points in
 * api.c, libc.c and driver.c are exported to instrumented code. */
#ifndef GB_RT_INT_H
#define GB_RT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gb_abi.h"
#include "gbt.h"

#define RT_HIDDEN __attribute__((visibility("hidden")))
#define RT_EXPORT __attribute__((visibility("default")))
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* A runtime expression. `id` is its trace node id once written (0 before):
 * nodes are written lazily, only when a path-constraint entry needs them.
 * Only ITE has a third argument and no op with three has an immediate, so
 * arg[2] and imm share their 8 bytes: 32-byte nodes, a fifth fewer arena
 * pages to fault in and clear than with 40. Read imm only when arity < 3. */
typedef struct rt_expr {
    uint8_t op;
    uint8_t width;
    uint16_t depth;
    uint32_t id;
    union {
        struct rt_expr *arg[3];
        struct {
            struct rt_expr *arg_lo_[2];
            uint64_t imm;
        };
    };
} rt_expr_t;
_Static_assert(sizeof(rt_expr_t) == 32, "rt_expr_t is 32 bytes");

/* A registered constant table (table.c). `id` is its trace id once a READ
 * used it, 0 before; `written` once its TABLE record is in the trace. For
 * GLASSBOX_TABLES=auto: `chained` once a read of it was indexed by an
 * earlier table read; `wide_known` and `wide`, bit k for loads of 2^k
 * bytes (k = 1..3), whether that width was looked at and holds an entry
 * outside -256..255 (a CRC's or a hash's values, not a code). */
typedef struct rt_table {
    uintptr_t start;
    uint32_t size;
    uint32_t id;
    uint8_t written;
    uint8_t chained;
    uint8_t wide_known;
    uint8_t wide;
} rt_table_t;

/* Which constant-table reads stay symbolic (GLASSBOX_TABLES; table.c). */
enum {
    RT_TABLES_NONE = 0, /* "0": every read is pinned (libc's ctype tables aside) */
    RT_TABLES_ALL = 1,  /* "1": every read */
    RT_TABLES_AUTO = 2  /* default: those of tables of small entries, not in a chain */
};

/* Limits, read once from the environment (see docs/tracer.md). */
typedef struct rt_limits {
    uint64_t max_pcs;      /* GLASSBOX_MAX_PCS: stop recording after this many */
    unsigned max_depth;    /* GLASSBOX_MAX_DEPTH: deeper results become concrete */
    uint64_t max_nodes;    /* GLASSBOX_MAX_NODES: arena cap */
    unsigned backoff_free; /* GLASSBOX_BACKOFF: hits per site recorded before back-off */
    int backoff_ctx;       /* GLASSBOX_BACKOFF_CTX=0: key back-off by site alone */
    int tables;            /* GLASSBOX_TABLES: RT_TABLES_* (default auto) */
    int length;            /* GLASSBOX_LENGTH=0 turns the length variable off */
} rt_limits_t;

/* Global runtime state (single-threaded tracking; see docs/tracer.md). */
typedef struct rt_state {
    int stopped;       /* a cap was hit: record nothing more */
    rt_limits_t lim;
    uint64_t nodes;    /* expressions created */
    uint64_t written;  /* nodes written to the trace */
    uint64_t pcs;      /* PC entries written */
    uint64_t dropped;  /* constraints left out by back-off or caps */
    uint64_t concretized; /* results made concrete by the depth/node caps */
    uint64_t input_len; /* length of the input given to __gb_input */
} rt_state_t;

RT_HIDDEN extern rt_state_t rt;

/* Tracing is on in this thread: GLASSBOX_TRACE_OUT was set and opened, by
 * this thread. Symbolic state follows that one thread only (docs/tracer.md,
 * "Threads"): in any other thread every shadow reads as concrete and
 * writes clear shadows, so nothing shared is built or recorded there. */
#define RT_TLS __thread __attribute__((tls_model("initial-exec")))
RT_HIDDEN extern RT_TLS int rt_active;

/* expr.c: construction with folding. Return NULL when a cap is hit (the
 * value is then treated as concrete). */
RT_HIDDEN rt_expr_t *rt_const(unsigned width, uint64_t v);
RT_HIDDEN rt_expr_t *rt_input(uint64_t offset);
RT_HIDDEN rt_expr_t *rt_binop(unsigned op, rt_expr_t *a, rt_expr_t *b);
/* Whether x op y == y op x for a bit-vector op: rt_binop puts such an op's
 * constant on the right, and __gb_binop may swap its operands. */
static inline int rt_op_commutes(unsigned op)
{
    return op == GBT_OP_ADD || op == GBT_OP_MUL || op == GBT_OP_AND || op == GBT_OP_OR ||
           op == GBT_OP_XOR || op == GBT_OP_EQ || op == GBT_OP_NE;
}
/* rt_binop(op, a, rt_const(a->width, c)), op not floating point. */
RT_HIDDEN rt_expr_t *rt_binop_k(unsigned op, rt_expr_t *a, uint64_t c);
/* A floating-point node (op in gbt_op_is_fp; b NULL for one argument). */
RT_HIDDEN rt_expr_t *rt_fp(unsigned op, unsigned width, rt_expr_t *a, rt_expr_t *b);
/* An FP compare (op in gbt_op_is_fcmp), rewritten where it can be (fp.c). */
RT_HIDDEN rt_expr_t *rt_fcmp(unsigned op, rt_expr_t *a, rt_expr_t *b);
RT_HIDDEN rt_expr_t *rt_unop(unsigned op, unsigned width, rt_expr_t *a, uint64_t imm);
RT_HIDDEN rt_expr_t *rt_ite(rt_expr_t *c, rt_expr_t *a, rt_expr_t *b);
RT_HIDDEN rt_expr_t *rt_extract(rt_expr_t *a, unsigned lo, unsigned width);
RT_HIDDEN rt_expr_t *rt_concat(rt_expr_t *hi, rt_expr_t *lo);
RT_HIDDEN rt_expr_t *rt_resize(rt_expr_t *a, unsigned width); /* zext or extract */
RT_HIDDEN rt_expr_t *rt_read(rt_expr_t *off, rt_table_t *t, unsigned width);
/* The shadow of an integer of 65 to 128 bits (wide.c): a node of its own
 * kind, of the integer's width, whose arg[0] is the low 64 bits and arg[1]
 * the other width - 64 (NULL = that half concrete); NULL when both are.
 * Only the wide entry points read it; it is never written to a trace
 * (docs/tracer.md, "Integers wider than 64 bits"). */
#define RT_OP_PAIR 0xffu
RT_HIDDEN rt_expr_t *rt_pair(unsigned width, rt_expr_t *lo, rt_expr_t *hi);
RT_HIDDEN uint64_t rt_mask(unsigned width);

/* shadow.c: one shadow pointer per byte of memory. */
RT_HIDDEN rt_expr_t *rt_shadow_get(uintptr_t addr);
RT_HIDDEN void rt_shadow_set(uintptr_t addr, rt_expr_t *e);
RT_HIDDEN int rt_shadow_any(uintptr_t addr, size_t n); /* any byte symbolic? */
RT_HIDDEN void rt_shadow_clear(uintptr_t addr, size_t n);
RT_HIDDEN void rt_shadow_copy(uintptr_t dst, uintptr_t src, size_t n); /* memmove semantics */
RT_HIDDEN rt_expr_t *rt_shadow_load(uintptr_t addr, size_t n);
RT_HIDDEN void rt_shadow_store(uintptr_t addr, size_t n, rt_expr_t *e);

/* table.c: constant tables. */
RT_HIDDEN rt_table_t *rt_table_find(uintptr_t addr, size_t n);
RT_HIDDEN rt_table_t *rt_table_by_id(uint32_t id);
RT_HIDDEN rt_expr_t *rt_table_load(rt_expr_t *addr_expr, uintptr_t addr, size_t n);
/* Whether rt_table_load(., addr, n) reads a table (its look-up's side
 * effects included): lets a caller build the address expression only then. */
RT_HIDDEN int rt_table_has(uintptr_t addr, size_t n);

/* out.c: the trace file. */
RT_HIDDEN int rt_out_open(const char *path, const uint8_t *input, size_t len);
RT_HIDDEN void rt_out_pc(unsigned kind, int taken, uint32_t site, rt_expr_t *cond);
RT_HIDDEN void rt_out_block(uint32_t id);
RT_HIDDEN void rt_out_end(unsigned kind, int code);

/* api.c */
RT_HIDDEN void rt_init(void);
RT_HIDDEN void rt_pin(rt_expr_t *e, uint64_t value, uint32_t site);
/* record.c: whether an entry at `site` is recorded (back-off, asked before
 * its condition is built); record one entry; a pin rt_keep let through. */
RT_HIDDEN int rt_keep(uint32_t site);
RT_HIDDEN int rt_keep_salted(uint32_t site, uint32_t salt);
RT_HIDDEN void rt_record(unsigned kind, int taken, uint32_t site, rt_expr_t *cond);
RT_HIDDEN void rt_pin_kept(rt_expr_t *e, uint64_t value, uint32_t site);
/* The input's length as a 64-bit expression over the length variable
 * (docs/trace-format.md, "Input length"); NULL when tracing is off, the
 * variable is turned off, or the input is too long for it. */
RT_HIDDEN rt_expr_t *rt_input_len(void);

/* ---- Entry points called by instrumented code (docs/tracer.md) ------- */
RT_EXPORT void __gb_input(const uint8_t *data, size_t len);
RT_EXPORT void *__gb_input_len(void);
RT_EXPORT void *__gb_binop(uint32_t op, uint32_t width, void *a, uint64_t va, void *b,
                           uint64_t vb);
RT_EXPORT void *__gb_unop(uint32_t op, uint32_t width, void *a, uint64_t imm);
RT_EXPORT void *__gb_select(void *c, uint64_t vc, void *a, uint64_t va, void *b, uint64_t vb,
                            uint32_t width);
RT_EXPORT void __gb_branch(void *c, uint64_t vc, uint32_t site);
RT_EXPORT void __gb_divcheck(void *d, uint64_t vd, uint32_t site);
RT_EXPORT void *__gb_intrin(uint32_t code, uint32_t width, void *a, uint64_t va, void *b,
                            uint64_t vb, void *c, uint64_t vc);
RT_EXPORT void __gb_switch(void *v, uint64_t vv, uint32_t width, uint32_t site, uint32_t n,
                           const uint64_t *cases);
RT_EXPORT void *__gb_load(const void *addr, uint32_t size, void *addr_shadow, uint32_t site);
RT_EXPORT void __gb_store(void *addr, uint32_t size, void *v, void *addr_shadow, uint32_t site);
RT_EXPORT void *__gb_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase,
                             void *idx, uint64_t c, uint64_t scale, uint32_t site);
RT_EXPORT void __gb_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                             void *idx, uint64_t c, uint64_t scale, uint32_t site);
RT_EXPORT void *__gb_gep_idx(void *acc, void *idx, uint64_t c, uint32_t width, uint64_t scale);
RT_EXPORT void *__gb_gep_end(void *base, uint64_t vbase, void *acc, uint64_t result);
RT_EXPORT void __gb_check_bound(void *idx, uint64_t v, uint32_t width, uint64_t n, uint32_t site);
RT_EXPORT void __gb_memcpy(void *dst, const void *src, uint64_t n);
RT_EXPORT void __gb_memset(void *dst, void *v, uint64_t n);
RT_EXPORT void __gb_concretize(void *s, uint64_t v, uint32_t site);
RT_EXPORT void *__gb_fp_bits(void *s, uint64_t v, uint32_t width, uint32_t site);
RT_EXPORT void __gb_clear(void *p, uint64_t n);
RT_EXPORT void __gb_va_enter(uint32_t ok, uint32_t nfixed, void **save);
RT_EXPORT void __gb_va_start(void *ap, void **save);
RT_EXPORT void __gb_block(uint32_t id);
RT_EXPORT void __gb_table_register(const void *addr, uint64_t size);
/* wide.c: integers of 65 to 128 bits, whose shadows are pairs (rt_pair). */
RT_EXPORT void *__gb_w_binop(uint32_t op, uint32_t width, void *a, uint64_t alo, uint64_t ahi,
                             void *b, uint64_t blo, uint64_t bhi, uint32_t site);
RT_EXPORT void *__gb_w_cmp(uint32_t op, uint32_t width, void *a, uint64_t alo, uint64_t ahi,
                           void *b, uint64_t blo, uint64_t bhi);
RT_EXPORT void *__gb_w_ext(uint32_t op, uint32_t from, uint32_t to, void *a);
RT_EXPORT void *__gb_w_trunc(uint32_t to, uint32_t from, void *a);
RT_EXPORT void *__gb_w_resize(uint32_t op, uint32_t from, uint32_t to, void *a);
RT_EXPORT void *__gb_w_field(void *agg, uint32_t idx);
RT_EXPORT void *__gb_w_insert(void *agg, uint32_t idx, void *v);
RT_EXPORT void *__gb_w_select(void *c, uint64_t vc, void *a, uint64_t alo, void *b, uint64_t blo,
                              uint64_t ahi, uint64_t bhi, uint32_t width);
RT_EXPORT void __gb_w_pin(void *a, uint64_t lo, uint64_t hi, uint32_t width, uint32_t site);
RT_EXPORT void *__gb_w_load(const void *addr, uint32_t size, void *addr_shadow, uint32_t site,
                            uint32_t width);
RT_EXPORT void __gb_w_store(void *addr, uint32_t size, void *v, void *addr_shadow, uint32_t site,
                            uint32_t width);
RT_EXPORT void *__gb_w_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site, uint32_t width);
RT_EXPORT void __gb_w_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site, uint32_t width);
RT_EXPORT int __gb_model_memcmp(const void *a, const void *b, size_t n);
RT_EXPORT int __gb_model_bcmp(const void *a, const void *b, size_t n);
RT_EXPORT int __gb_model_strcmp(const char *a, const char *b);
RT_EXPORT int __gb_model_strncmp(const char *a, const char *b, size_t n);
RT_EXPORT size_t __gb_model_strlen(const char *s);
RT_EXPORT void *__gb_model_memcpy(void *d, const void *s, size_t n);
RT_EXPORT void *__gb_model_memmove(void *d, const void *s, size_t n);
RT_EXPORT void *__gb_model_memset(void *d, int c, size_t n);
RT_EXPORT char *__gb_model_strcpy(char *d, const char *s);
RT_EXPORT int __gb_model_abs(int x);
RT_EXPORT long __gb_model_labs(long x);
RT_EXPORT long long __gb_model_llabs(long long x);

/* ---- libc models (libc*.c; docs/tracer.md, "libc models") ------------ */
#define RT_MODEL_MAX_BYTES 4096 /* longer symbolic scans and compares stay concrete */

extern __thread void *__gb_params[];
extern __thread void *__gb_ret;
extern __thread void *__gb_callee;
extern __thread uint32_t __gb_ctx; /* call-context hash (gb_abi.h) */
RT_EXPORT extern uint8_t __gb_block_seen[GB_MAP_SIZE / 8];

RT_HIDDEN rt_expr_t *rt_model_param(const void *self, unsigned i);
RT_HIDDEN rt_expr_t *rt_model_byte(const uint8_t *p);
RT_HIDDEN uint32_t rt_model_site(const char *model, const void *ret, unsigned role, uint64_t pos);
RT_HIDDEN void rt_model_decide(uint32_t site, rt_expr_t *cond, int truth);
RT_HIDDEN void rt_model_decide_byte(uint32_t site, const uint8_t *p, rt_expr_t *cond, int truth);
RT_HIDDEN size_t rt_model_str_extent(const char *s, size_t limit);

/* libc_num.c, shared with the scanf models (io_scan.c): where a number's
 * bytes are. s[0, avail) is what may be read; when in_off >= 0 they are
 * the input file's bytes from in_off (fscanf), else bytes in memory with
 * shadows. Site ids hash model, ret and site_off + the byte's position. */
typedef struct rt_num_src {
    const uint8_t *s;
    int64_t in_off;
    size_t site_off;
    const char *model;
    const void *ret;
    size_t avail;
    int per_byte; /* back-off per input byte (rt_model_decide_byte) */
} rt_num_src_t;
RT_HIDDEN rt_expr_t *rt_num_scanned(const rt_num_src_t *src, int base, int is_signed, size_t width,
                                    size_t used, uint64_t value, unsigned bits);
RT_HIDDEN void rt_num_scan_failed(const rt_num_src_t *src, int base, size_t width);
RT_HIDDEN int rt_num_is_space(uint8_t c);
RT_HIDDEN rt_expr_t *rt_num_space_cond(rt_expr_t *c);
RT_HIDDEN rt_expr_t *rt_num_digit_cond(rt_expr_t *c, int base);

/* table.c: a table read symbolically even when GLASSBOX_TABLES is off
 * (libc's ctype tables: small, and every parser indexes them). */
RT_HIDDEN void rt_table_register_always(const void *addr, uint64_t size);

/* Models added with the helpers above (libc.c, libc_str.c, libc_num.c,
 * libc_ctype.c). */
RT_EXPORT int __gb_model_strcasecmp(const char *a, const char *b);
RT_EXPORT int __gb_model_strncasecmp(const char *a, const char *b, size_t n);
RT_EXPORT size_t __gb_model_strnlen(const char *s, size_t n);
RT_EXPORT char *__gb_model_strncpy(char *d, const char *s, size_t n);
RT_EXPORT char *__gb_model_strcat(char *d, const char *s);
RT_EXPORT char *__gb_model_strdup(const char *s);
RT_EXPORT char *__gb_model_strndup(const char *s, size_t n);
RT_EXPORT void *__gb_model_memchr(const void *s, int c, size_t n);
RT_EXPORT void *__gb_model_memrchr(const void *s, int c, size_t n);
RT_EXPORT char *__gb_model_strchr(const char *s, int c);
RT_EXPORT char *__gb_model_strrchr(const char *s, int c);
RT_EXPORT char *__gb_model_strstr(const char *h, const char *nd);
RT_EXPORT void *__gb_model_memmem(const void *h, size_t hl, const void *nd, size_t nl);
RT_EXPORT size_t __gb_model_strspn(const char *s, const char *accept);
RT_EXPORT size_t __gb_model_strcspn(const char *s, const char *reject);
RT_EXPORT char *__gb_model_strtok(char *s, const char *delim);
RT_EXPORT char *__gb_model_strtok_r(char *s, const char *delim, char **save);
RT_EXPORT void *__gb_model___memcpy_chk(void *d, const void *s, size_t n, size_t dn);
RT_EXPORT void *__gb_model___memmove_chk(void *d, const void *s, size_t n, size_t dn);
RT_EXPORT void *__gb_model___memset_chk(void *d, int c, size_t n, size_t dn);
RT_EXPORT char *__gb_model___strcpy_chk(char *d, const char *s, size_t dn);
RT_EXPORT char *__gb_model___strncpy_chk(char *d, const char *s, size_t n, size_t dn);
RT_EXPORT char *__gb_model___strcat_chk(char *d, const char *s, size_t dn);
RT_EXPORT long __gb_model_strtol(const char *s, char **endptr, int base);
RT_EXPORT long long __gb_model_strtoll(const char *s, char **endptr, int base);
RT_EXPORT unsigned long __gb_model_strtoul(const char *s, char **endptr, int base);
RT_EXPORT unsigned long long __gb_model_strtoull(const char *s, char **endptr, int base);
RT_EXPORT int __gb_model_atoi(const char *s);
RT_EXPORT long __gb_model_atol(const char *s);
RT_EXPORT double __gb_model_strtod(const char *s, char **endptr);
RT_EXPORT float __gb_model_strtof(const char *s, char **endptr);
RT_EXPORT double __gb_model_atof(const char *s);
RT_EXPORT uint16_t __gb_model_htons(uint16_t x);
RT_EXPORT uint16_t __gb_model_ntohs(uint16_t x);
RT_EXPORT uint32_t __gb_model_htonl(uint32_t x);
RT_EXPORT uint32_t __gb_model_ntohl(uint32_t x);
RT_EXPORT const unsigned short **__gb_model___ctype_b_loc(void);
RT_EXPORT const int32_t **__gb_model___ctype_tolower_loc(void);
RT_EXPORT const int32_t **__gb_model___ctype_toupper_loc(void);
RT_EXPORT int __gb_model_isdigit(int c);
RT_EXPORT int __gb_model_isalpha(int c);
RT_EXPORT int __gb_model_isalnum(int c);
RT_EXPORT int __gb_model_isspace(int c);
RT_EXPORT int __gb_model_isxdigit(int c);
RT_EXPORT int __gb_model_isupper(int c);
RT_EXPORT int __gb_model_islower(int c);
RT_EXPORT int __gb_model_tolower(int c);
RT_EXPORT int __gb_model_toupper(int c);

#endif
