/* SPDX-License-Identifier: Apache-2.0 */
/* The instrumenter. Cov mode adds one counter per basic block in AFL++'s
 * map. Trace mode gives every integer or pointer SSA value a shadow (an
 * i8* expression handle, null = concrete), calls the runtime where a shadow
 * may be non-null, and records branches, switches, pins and blocks. See
 * docs/tracer.md for the runtime ABI. */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"
#include "gb_abi.h"
#include "gb_hmap.h"
#include "gbt.h"

#define MAX_PARAMS GB_MAX_PARAMS
#define VA_LIST_SIZE 24 /* x86-64 System V: two offsets, two pointers */

typedef struct smap_ent {
    LLVMValueRef key, val; /* key NULL = empty */
} smap_ent_t;

/* Values are LLVM objects: the low 4 bits of their addresses are zero. */
static uint64_t smap_hash(LLVMValueRef k)
{
    return ((uintptr_t)k >> 4) * 0x9e3779b97f4a7c15ull;
}

GB_HMAP_DEFINE_KEYED(smap, smap_ent_t, LLVMValueRef, smap_hash, calloc, free)

/* Per-module instrumentation context. */
typedef struct ictx {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    LLVMTypeRef i1, i8, i32, i64, i8p, vd;
    LLVMValueRef nullp;
    LLVMValueRef params, ret, callee, ctx, vadesc; /* TLS globals */
    LLVMValueRef vasave;       /* this function's GB_VA_SAVE slots, if it calls va_start */
    LLVMValueRef fctx, fctx_k; /* this function's entry context, and it times GB_CTX_MUL */
    LLVMBuilderRef wb;         /* builds the fast-path wrappers */
    /* blocks an invoke continues at: the caller's context is restored there */
    LLVMBasicBlockRef *landings;
    size_t nlandings, cap_landings;
    smap_t map; /* shadow map, per function */
    /* phis whose shadow incoming values are filled at the end */
    LLVMValueRef *phis;
    size_t nphis, cap_phis;
    /* getelementptrs whose address shadow their loads and stores build
     * (lazy_gep), this function's */
    LLVMValueRef *lazies;
    size_t nlazies, cap_lazies;
    gb_ids_t ids;
} ictx_t;

/* ---- runtime declarations ------------------------------------------ */

static LLVMValueRef rt_fn(ictx_t *x, const char *name, LLVMTypeRef ret, LLVMTypeRef *args,
                          unsigned n, LLVMTypeRef *fty)
{
    *fty = LLVMFunctionType(ret, args, n, 0);
    LLVMValueRef f = LLVMGetNamedFunction(x->m, name);
    if (!f)
        f = LLVMAddFunction(x->m, name, *fty);
    return f;
}

static LLVMValueRef cu32(ictx_t *x, unsigned long long v) { return LLVMConstInt(x->i32, v, 0); }
static LLVMValueRef cu64(ictx_t *x, unsigned long long v) { return LLVMConstInt(x->i64, v, 0); }
static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb);

/* ---- fast paths ------------------------------------------------------
 * Most calls into the runtime have nothing to do: every shadow argument is
 * null, the memory touched has no shadow page, the block was seen. Each
 * entry point below gets an internal always-inline wrapper that tests for
 * that first, so after inlining only the test stays on the concrete path
 * (the object is optimized again, and even -O0 runs the always-inliner).
 * Wrappers are new functions, so blocks and sites keep their ids. */

typedef enum fast_kind {
    FAST_NULL,   /* every shadow argument null: result NULL (or nothing to do) */
    FAST_PASS0,  /* ... : result = argument 0 (__gb_gep_idx's accumulator) */
    FAST_SELECT, /* the condition's shadow null: select the operand's shadow */
    FAST_MEM,    /* shadows null and [arg 0, + arg 1) has no shadow page */
    FAST_BLOCK,  /* the block's bit in __gb_block_seen is set */
} fast_kind_t;

static const struct fast_spec {
    const char *name;
    fast_kind_t kind;
    unsigned shadows; /* bit i: argument i is a shadow */
} fasts[] = {
    {"__gb_binop", FAST_NULL, 1u << 2 | 1u << 4},
    {"__gb_unop", FAST_NULL, 1u << 2},
    {"__gb_fp_bits", FAST_NULL, 1u << 0},
    {"__gb_intrin", FAST_NULL, 1u << 2 | 1u << 4 | 1u << 6},
    {"__gb_select", FAST_SELECT, 1u << 0},
    {"__gb_branch", FAST_NULL, 1u << 0},
    {"__gb_divcheck", FAST_NULL, 1u << 0},
    {"__gb_switch", FAST_NULL, 1u << 0},
    {"__gb_check_bound", FAST_NULL, 1u << 0},
    {"__gb_gep_idx", FAST_PASS0, 1u << 1},
    {"__gb_gep_end", FAST_NULL, 1u << 0 | 1u << 2},
    {"__gb_load", FAST_MEM, 1u << 2},
    {"__gb_store", FAST_MEM, 1u << 2 | 1u << 3},
    {"__gb_load_ix", FAST_MEM, 1u << 2 | 1u << 4},
    {"__gb_store_ix", FAST_MEM, 1u << 2 | 1u << 3 | 1u << 5},
    {"__gb_block", FAST_BLOCK, 0},
    /* 65 to 128 bits (instrument_wide.inc): shadows are pairs, values two halves */
    {"__gb_w_binop", FAST_NULL, 1u << 2 | 1u << 5},
    {"__gb_w_cmp", FAST_NULL, 1u << 2 | 1u << 5},
    {"__gb_w_ext", FAST_NULL, 1u << 3},
    {"__gb_w_trunc", FAST_NULL, 1u << 2},
    {"__gb_w_resize", FAST_NULL, 1u << 3},
    {"__gb_w_field", FAST_NULL, 1u << 0},
    {"__gb_w_insert", FAST_NULL, 1u << 0 | 1u << 2},
    {"__gb_w_select", FAST_SELECT, 1u << 0},
    {"__gb_w_pin", FAST_NULL, 1u << 0},
    {"__gb_w_load", FAST_MEM, 1u << 2},
    {"__gb_w_store", FAST_MEM, 1u << 2 | 1u << 3},
    {"__gb_w_load_ix", FAST_MEM, 1u << 2 | 1u << 4},
    {"__gb_w_store_ix", FAST_MEM, 1u << 2 | 1u << 3 | 1u << 5},
};

/* Marks conditional branch `br` as rarely taking its first successor. */
static void rarely(ictx_t *x, LLVMValueRef br)
{
    LLVMMetadataRef md[] = {LLVMMDStringInContext2(x->c, "branch_weights", 14),
                            LLVMValueAsMetadata(LLVMConstInt(x->i32, 1, 0)),
                            LLVMValueAsMetadata(LLVMConstInt(x->i32, 64, 0))};
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(x->c, "prof", 4),
                    LLVMMetadataAsValue(x->c, LLVMMDNodeInContext2(x->c, md, 3)));
}

static void cond_br(ictx_t *x, LLVMValueRef c, LLVMBasicBlockRef rare, LLVMBasicBlockRef usual)
{
    rarely(x, LLVMBuildCondBr(x->wb, c, rare, usual));
}

static LLVMValueRef ext_global(ictx_t *x, const char *name, LLVMTypeRef ty)
{
    LLVMValueRef g = LLVMGetNamedGlobal(x->m, name);
    if (!g) {
        g = LLVMAddGlobal(x->m, ty, name);
        LLVMSetLinkage(g, LLVMExternalLinkage);
    }
    return g;
}

/* Loads the i8* at index `idx` of the table `tab` (an i8*, viewed as i8**). */
static LLVMValueRef table_at(ictx_t *x, LLVMValueRef tab, LLVMValueRef idx)
{
    LLVMTypeRef pp = LLVMPointerType(x->i8p, 0);
    LLVMValueRef t = LLVMBuildBitCast(x->wb, tab, pp, "");
    return LLVMBuildLoad2(x->wb, x->i8p, LLVMBuildInBoundsGEP2(x->wb, x->i8p, t, &idx, 1, ""),
                          "");
}

/* i1 from the current block: some of the first min(size, 8) shadows at
 * offset `off` of shadow page `pg` is set (size >= 1, the access within
 * the page). Slot off + min(i, size - 1) for i < 8: never past the
 * access, so never past the page, and with a constant size the repeated
 * loads fold away. */
static LLVMValueRef slots_set(ictx_t *x, LLVMValueRef pg, LLVMValueRef off, LLVMValueRef size)
{
    LLVMValueRef last = LLVMBuildSub(x->wb, size, cu64(x, 1), ""), acc = NULL;
    for (unsigned i = 0; i < GB_SHADOW_INLINE_MAX; i++) {
        LLVMValueRef lt = LLVMBuildICmp(x->wb, LLVMIntULT, cu64(x, i), last, "");
        LLVMValueRef k = LLVMBuildSelect(x->wb, lt, cu64(x, i), last, "");
        LLVMValueRef v = LLVMBuildPtrToInt(
            x->wb, table_at(x, pg, LLVMBuildAdd(x->wb, off, k, "")), x->i64, "");
        acc = acc ? LLVMBuildOr(x->wb, acc, v, "") : v;
    }
    return LLVMBuildICmp(x->wb, LLVMIntNE, acc, cu64(x, 0), "");
}

/* FAST_MEM from the current block: `busy`, an access of 0 bytes or one
 * crossing a page go to `slow`; then the shadow tables are walked
 * (gb_abi.h) and a null entry at any level goes to `fast`; on an existing
 * page, an access of at most GB_SHADOW_INLINE_MAX bytes whose shadows are
 * all null goes to `fast` too. Only concrete memory may skip. */
static void mem_test(ictx_t *x, LLVMValueRef w, LLVMValueRef busy, LLVMBasicBlockRef slow,
                     LLVMBasicBlockRef fast)
{
    LLVMBasicBlockRef b1 = LLVMAppendBasicBlockInContext(x->c, w, ""),
                      b2 = LLVMAppendBasicBlockInContext(x->c, w, ""),
                      b3 = LLVMAppendBasicBlockInContext(x->c, w, ""),
                      b4 = LLVMAppendBasicBlockInContext(x->c, w, "");
    LLVMValueRef a = LLVMBuildPtrToInt(x->wb, LLVMGetParam(w, 0), x->i64, "");
    LLVMValueRef size = LLVMBuildZExt(x->wb, LLVMGetParam(w, 1), x->i64, "");
    LLVMValueRef off = LLVMBuildAnd(x->wb, a, cu64(x, (1u << GB_SHADOW_PAGE_SHIFT) - 1), "");
    LLVMValueRef end = LLVMBuildAdd(x->wb, off, size, "");
    LLVMValueRef cross =
        LLVMBuildICmp(x->wb, LLVMIntUGT, end, cu64(x, 1u << GB_SHADOW_PAGE_SHIFT), "");
    LLVMValueRef empty = LLVMBuildICmp(x->wb, LLVMIntEQ, size, cu64(x, 0), "");
    cond_br(x, LLVMBuildOr(x->wb, LLVMBuildOr(x->wb, busy, cross, ""), empty, ""), slow, b1);
    LLVMPositionBuilderAtEnd(x->wb, b1);
    LLVMValueRef l1 = LLVMBuildLoad2(x->wb, x->i8p, ext_global(x, "__gb_shadow_l1", x->i8p), "");
    LLVMBuildCondBr(x->wb, LLVMBuildIsNull(x->wb, l1, ""), fast, b2);
    LLVMPositionBuilderAtEnd(x->wb, b2);
    LLVMValueRef i1 = LLVMBuildAnd(x->wb, LLVMBuildLShr(x->wb, a, cu64(x, GB_SHADOW_L1_SHIFT), ""),
                                   cu64(x, GB_SHADOW_L1_MASK), "");
    LLVMValueRef l2 = table_at(x, l1, i1);
    LLVMBuildCondBr(x->wb, LLVMBuildIsNull(x->wb, l2, ""), fast, b3);
    LLVMPositionBuilderAtEnd(x->wb, b3);
    LLVMValueRef i2 = LLVMBuildAnd(
        x->wb, LLVMBuildLShr(x->wb, a, cu64(x, GB_SHADOW_PAGE_SHIFT), ""), cu64(x, GB_SHADOW_L2_MASK),
        "");
    LLVMValueRef pg = table_at(x, l2, i2);
    LLVMBuildCondBr(x->wb, LLVMBuildIsNull(x->wb, pg, ""), fast, b4);
    LLVMPositionBuilderAtEnd(x->wb, b4);
    LLVMValueRef big =
        LLVMBuildICmp(x->wb, LLVMIntUGT, size, cu64(x, GB_SHADOW_INLINE_MAX), "");
    cond_br(x, LLVMBuildOr(x->wb, big, slots_set(x, pg, off, size), ""), slow, fast);
}

/* FAST_BLOCK: i1 "the block's seen bit is clear" (argument 0 = its id). */
static LLVMValueRef block_unseen(ictx_t *x, LLVMValueRef w)
{
    LLVMTypeRef aty = LLVMArrayType(x->i8, GB_MAP_SIZE / 8);
    LLVMValueRef seen = ext_global(x, "__gb_block_seen", aty);
    LLVMValueRef id = LLVMGetParam(w, 0);
    LLVMValueRef idx[] = {cu64(x, 0), LLVMBuildZExt(x->wb, LLVMBuildLShr(x->wb, id, cu32(x, 3), ""),
                                                   x->i64, "")};
    LLVMValueRef byte =
        LLVMBuildLoad2(x->wb, x->i8, LLVMBuildInBoundsGEP2(x->wb, aty, seen, idx, 2, ""), "");
    LLVMValueRef bit = LLVMBuildShl(x->wb, LLVMConstInt(x->i8, 1, 0),
                                    LLVMBuildTrunc(x->wb, LLVMBuildAnd(x->wb, id, cu32(x, 7), ""),
                                                   x->i8, ""),
                                    "");
    LLVMValueRef hit = LLVMBuildAnd(x->wb, byte, bit, "");
    return LLVMBuildICmp(x->wb, LLVMIntEQ, hit, LLVMConstInt(x->i8, 0, 0), "");
}

/* i1: some shadow argument of `w` (mask `shadows`) is non-null. */
static LLVMValueRef any_shadow(ictx_t *x, LLVMValueRef w, unsigned shadows)
{
    LLVMValueRef acc = NULL;
    for (unsigned i = 0; shadows >> i; i++) {
        if (!((shadows >> i) & 1))
            continue;
        LLVMValueRef v = LLVMBuildPtrToInt(x->wb, LLVMGetParam(w, i), x->i64, "");
        acc = acc ? LLVMBuildOr(x->wb, acc, v, "") : v;
    }
    return acc ? LLVMBuildICmp(x->wb, LLVMIntNE, acc, cu64(x, 0), "")
               : LLVMConstInt(x->i1, 0, 0);
}

/* The result of the fast path, in the current block of `w`. */
static void fast_return(ictx_t *x, LLVMValueRef w, const struct fast_spec *sp, LLVMTypeRef ret)
{
    if (sp->kind == FAST_PASS0) {
        LLVMBuildRet(x->wb, LLVMGetParam(w, 0));
    } else if (sp->kind == FAST_SELECT) { /* (c, vc, a, va, b, vb, width) */
        LLVMValueRef c = LLVMBuildTrunc(x->wb, LLVMGetParam(w, 1), x->i1, "");
        LLVMBuildRet(x->wb, LLVMBuildSelect(x->wb, c, LLVMGetParam(w, 2), LLVMGetParam(w, 4), ""));
    } else if (ret == x->vd) {
        LLVMBuildRetVoid(x->wb);
    } else {
        LLVMBuildRet(x->wb, LLVMConstNull(ret));
    }
}

/* The wrapper `__gb_fast_NAME` of entry point `sp`, defined on first use. */
static LLVMValueRef fast_wrapper(ictx_t *x, const struct fast_spec *sp, LLVMTypeRef ret,
                                 LLVMTypeRef *types, unsigned n, LLVMTypeRef *fty)
{
    char name[64];
    snprintf(name, sizeof name, "__gb_fast_%s", sp->name + 5);
    LLVMValueRef real = rt_fn(x, sp->name, ret, types, n, fty);
    LLVMValueRef w = LLVMGetNamedFunction(x->m, name);
    if (w)
        return w;
    w = LLVMAddFunction(x->m, name, *fty);
    LLVMSetLinkage(w, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(
        w, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(x->c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(x->c, w, ""),
                      slow = LLVMAppendBasicBlockInContext(x->c, w, ""),
                      fast = LLVMAppendBasicBlockInContext(x->c, w, "");
    LLVMPositionBuilderAtEnd(x->wb, entry);
    if (sp->kind == FAST_MEM)
        mem_test(x, w, any_shadow(x, w, sp->shadows), slow, fast);
    else if (sp->kind == FAST_BLOCK)
        cond_br(x, block_unseen(x, w), slow, fast);
    else
        cond_br(x, any_shadow(x, w, sp->shadows), slow, fast);
    LLVMPositionBuilderAtEnd(x->wb, slow);
    LLVMValueRef args[MAX_PARAMS];
    for (unsigned i = 0; i < n; i++)
        args[i] = LLVMGetParam(w, i);
    LLVMValueRef r = LLVMBuildCall2(x->wb, *fty, real, args, n, "");
    if (ret == x->vd)
        LLVMBuildRetVoid(x->wb);
    else
        LLVMBuildRet(x->wb, r);
    LLVMPositionBuilderAtEnd(x->wb, fast);
    fast_return(x, w, sp, ret);
    return w;
}

/* A call of runtime entry point `name` at the builder, through its fast
 * path when it has one. */
static LLVMValueRef call_rt(ictx_t *x, const char *name, LLVMTypeRef ret, LLVMTypeRef *types,
                            LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef fty;
    LLVMValueRef f = NULL;
    for (size_t i = 0; i < sizeof fasts / sizeof fasts[0] && !f; i++)
        if (strcmp(name, fasts[i].name) == 0)
            f = fast_wrapper(x, &fasts[i], ret, types, n, &fty);
    if (!f)
        f = rt_fn(x, name, ret, types, n, &fty);
    return LLVMBuildCall2(x->b, fty, f, args, n, "");
}

static LLVMValueRef tls_global(ictx_t *x, const char *name, LLVMTypeRef ty)
{
    LLVMValueRef g = LLVMGetNamedGlobal(x->m, name);
    if (!g) {
        g = LLVMAddGlobal(x->m, ty, name);
        LLVMSetThreadLocal(g, 1);
        LLVMSetLinkage(g, LLVMExternalLinkage);
    }
    return g;
}

/* ---- shadow map ---------------------------------------------------- */

/* Records v as the shadow of k; -1 when out of memory (k stays concrete). */
static int map_put(ictx_t *x, LLVMValueRef k, LLVMValueRef v)
{
    int fresh;
    smap_ent_t *s = smap_put(&x->map, k, &fresh);
    if (!s)
        return -1;
    *s = (smap_ent_t){k, v};
    return 0;
}

static LLVMValueRef shadow(ictx_t *x, LLVMValueRef v)
{
    smap_ent_t *s = NULL;
    if (LLVMIsAInstruction(v) || LLVMIsAArgument(v))
        s = smap_find(&x->map, v);
    return s ? s->val : x->nullp;
}

/* ---- types and values ---------------------------------------------- */

/* Width in bits of a tracked value type (integers up to 64, pointers as
 * 64, float and double as their IEEE bits), or 0 for types whose values
 * stay concrete. */
static unsigned tracked_width(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMPointerTypeKind || k == LLVMDoubleTypeKind)
        return 64;
    if (k == LLVMFloatTypeKind)
        return 32;
    if (k == LLVMIntegerTypeKind) {
        unsigned w = LLVMGetIntTypeWidth(t);
        return w <= 64 ? w : 0;
    }
    return 0;
}

/* Whether t is a struct of two i64: what clang passes an __int128 (and a
 * struct of two 64-bit integers) as, by value. */
static int is_i64_pair(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMCountStructElementTypes(t) != 2)
        return 0;
    for (unsigned i = 0; i < 2; i++) {
        LLVMTypeRef e = LLVMStructGetTypeAtIndex(t, i);
        if (LLVMGetTypeKind(e) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(e) != 64)
            return 0;
    }
    return 1;
}

/* Width in bits of an integer type of 65 to 128 bits, or 128 for a
 * struct of two i64, whose shadow is a pair (instrument_wide.inc); else 0. */
static unsigned is_wide(LLVMTypeRef t)
{
    if (is_i64_pair(t))
        return 128;
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return 0;
    unsigned w = LLVMGetIntTypeWidth(t);
    return w > 64 && w <= 128 ? w : 0;
}

/* Types whose shadows phis, freeze, calls and returns carry. */
static int carried(LLVMTypeRef t) { return tracked_width(t) || is_wide(t); }

static LLVMValueRef as_u64(ictx_t *x, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(x->b, v, x->i64, "");
    if (LLVMGetTypeKind(t) == LLVMFloatTypeKind)
        return LLVMBuildZExt(x->b, LLVMBuildBitCast(x->b, v, x->i32, ""), x->i64, "");
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
        return LLVMBuildBitCast(x->b, v, x->i64, "");
    if (LLVMGetIntTypeWidth(t) == 64)
        return v;
    return LLVMBuildZExt(x->b, v, x->i64, "");
}

static LLVMValueRef as_i8p(ictx_t *x, LLVMValueRef p)
{
    return LLVMBuildPointerCast(x->b, p, x->i8p, "");
}


static void after(ictx_t *x, LLVMValueRef inst)
{
    LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(inst));
}

/* ---- arithmetic, comparisons, casts -------------------------------- */

static int binop_code(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd: return GBT_OP_ADD;
    case LLVMSub: return GBT_OP_SUB;
    case LLVMMul: return GBT_OP_MUL;
    case LLVMUDiv: return GBT_OP_UDIV;
    case LLVMSDiv: return GBT_OP_SDIV;
    case LLVMURem: return GBT_OP_UREM;
    case LLVMSRem: return GBT_OP_SREM;
    case LLVMShl: return GBT_OP_SHL;
    case LLVMLShr: return GBT_OP_LSHR;
    case LLVMAShr: return GBT_OP_ASHR;
    case LLVMAnd: return GBT_OP_AND;
    case LLVMOr: return GBT_OP_OR;
    case LLVMXor: return GBT_OP_XOR;
    default: return 0;
    }
}

static int icmp_code(LLVMIntPredicate p)
{
    static const int codes[] = {
        [LLVMIntEQ] = GBT_OP_EQ,   [LLVMIntNE] = GBT_OP_NE,   [LLVMIntUGT] = GBT_OP_UGT,
        [LLVMIntUGE] = GBT_OP_UGE, [LLVMIntULT] = GBT_OP_ULT, [LLVMIntULE] = GBT_OP_ULE,
        [LLVMIntSGT] = GBT_OP_SGT, [LLVMIntSGE] = GBT_OP_SGE, [LLVMIntSLT] = GBT_OP_SLT,
        [LLVMIntSLE] = GBT_OP_SLE,
    };
    return (p >= LLVMIntEQ && p <= LLVMIntSLE) ? codes[p] : 0;
}

/* __gb_binop(op, width, sa, va, sb, vb) after `inst`. */
static void emit_binop(ictx_t *x, LLVMValueRef inst, int op, LLVMValueRef a, LLVMValueRef b)
{
    unsigned w = tracked_width(LLVMTypeOf(a));
    LLVMValueRef sa = shadow(x, a), sb = shadow(x, b);
    if (!w || !op || (sa == x->nullp && sb == x->nullp))
        return;
    after(x, inst);
    LLVMTypeRef ty[] = {x->i32, x->i32, x->i8p, x->i64, x->i8p, x->i64};
    LLVMValueRef args[] = {cu32(x, (unsigned)op), cu32(x, w), sa, as_u64(x, a), sb,
                           as_u64(x, b)};
    map_put(x, inst, call_rt(x, "__gb_binop", x->i8p, ty, args, 6));
}

static void emit_unop(ictx_t *x, LLVMValueRef inst, int op, unsigned width, LLVMValueRef a)
{
    LLVMValueRef sa = shadow(x, a);
    if (sa == x->nullp)
        return;
    after(x, inst);
    LLVMTypeRef ty[] = {x->i32, x->i32, x->i8p, x->i64};
    LLVMValueRef args[] = {cu32(x, (unsigned)op), cu32(x, width), sa, cu64(x, 0)};
    map_put(x, inst, call_rt(x, "__gb_unop", x->i8p, ty, args, 4));
}

/* Division and remainder by a symbolic divisor: a BRANCH entry on
 * `divisor != 0`, placed before the instruction that may trap. */
static void emit_divcheck(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef d = LLVMGetOperand(inst, 1), sd = shadow(x, d);
    if (sd == x->nullp || !tracked_width(LLVMTypeOf(d)))
        return;
    LLVMPositionBuilderBefore(x->b, inst);
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i32};
    LLVMValueRef args[] = {sd, as_u64(x, d), cu32(x, site)};
    call_rt(x, "__gb_divcheck", x->vd, ty, args, 3);
}

static void do_cast(ictx_t *x, LLVMValueRef inst, LLVMOpcode op)
{
    LLVMValueRef a = LLVMGetOperand(inst, 0);
    unsigned from = tracked_width(LLVMTypeOf(a)), to = tracked_width(LLVMTypeOf(inst));
    if (!from || !to)
        return;
    if (op == LLVMSExt)
        emit_unop(x, inst, GBT_OP_SEXT, to, a);
    else if (from == to)
        map_put(x, inst, shadow(x, a)); /* bitcast of pointers, ptrtoint i64 */
    else if (from < to)
        emit_unop(x, inst, GBT_OP_ZEXT, to, a);
    else
        emit_unop(x, inst, GBT_OP_EXTRACT, to, a);
}

static void do_select(ictx_t *x, LLVMValueRef inst)
{
    LLVMValueRef c = LLVMGetOperand(inst, 0), a = LLVMGetOperand(inst, 1),
                 b = LLVMGetOperand(inst, 2);
    unsigned w = tracked_width(LLVMTypeOf(inst));
    LLVMValueRef sc = shadow(x, c), sa = shadow(x, a), sb = shadow(x, b);
    if (!w || LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind)
        return;
    if (sc == x->nullp) {
        if (sa == x->nullp && sb == x->nullp)
            return;
        after(x, inst);
        map_put(x, inst, LLVMBuildSelect(x->b, c, sa, sb, ""));
        return;
    }
    after(x, inst);
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i8p, x->i64, x->i8p, x->i64, x->i32};
    LLVMValueRef args[] = {sc, as_u64(x, c), sa, as_u64(x, a), sb, as_u64(x, b), cu32(x, w)};
    map_put(x, inst, call_rt(x, "__gb_select", x->i8p, ty, args, 7));
}

/* ---- memory -------------------------------------------------------- */

/* __gb_concretize(shadow of v, v, site) before `at`: pins a symbolic value
 * that flows into one the tracer does not track. */
static void emit_concretize(ictx_t *x, LLVMValueRef at, LLVMValueRef sv, LLVMValueRef v,
                            uint32_t site)
{
    LLVMPositionBuilderBefore(x->b, at);
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i32};
    LLVMValueRef args[] = {sv, as_u64(x, v), cu32(x, site)};
    call_rt(x, "__gb_concretize", x->vd, ty, args, 3);
}

/* The arguments of __gb_load_ix/__gb_store_ix after the value's for a
 * lazy getelementptr (do_gep): base shadow, base, index shadow, index as
 * i64, scale. */
typedef struct lazy_args {
    LLVMValueRef sbase, base, sidx, idx;
    unsigned long long scale;
} lazy_args_t;

/* The index of getelementptr `g` that may be symbolic, its shadow and
 * its scale (bytes per unit) in *a, with the base and its shadow; no
 * such index: a null shadow, index 0, scale 0. Returns 0 when more than
 * one index may be symbolic, or the result is not a pointer. */
static int gep_one_index(ictx_t *x, LLVMValueRef g, lazy_args_t *a)
{
    if (LLVMGetTypeKind(LLVMTypeOf(g)) != LLVMPointerTypeKind)
        return 0;
    a->base = LLVMGetOperand(g, 0);
    a->sbase = shadow(x, a->base);
    a->sidx = x->nullp;
    a->idx = NULL;
    a->scale = 0;
    unsigned n = (unsigned)LLVMGetNumOperands(g), found = 0;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(g);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(g, i), s = shadow(x, ix);
        LLVMTypeRef scaled = cur;
        if (i > 1) {
            if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
                cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(ix));
                continue;
            }
            cur = LLVMGetElementType(cur);
            scaled = cur;
        }
        if (s == x->nullp)
            continue;
        if (found++ || !tracked_width(LLVMTypeOf(ix)))
            return 0;
        a->idx = ix;
        a->sidx = s;
        a->scale = LLVMABISizeOfType(x->td, scaled);
    }
    return 1;
}

/* Writes the five lazy arguments `a` to args, at the builder. */
static void put_lazy_args(ictx_t *x, const lazy_args_t *a, LLVMValueRef *args)
{
    args[0] = a->sbase;
    args[1] = as_u64(x, a->base);
    args[2] = a->sidx;
    args[3] = a->idx ? LLVMBuildSExtOrBitCast(x->b, a->idx, x->i64, "") : cu64(x, 0);
    args[4] = cu64(x, a->scale);
}

/* Whether `p` is a getelementptr left to its loads and stores (do_gep). */
static int is_lazy(const ictx_t *x, LLVMValueRef p)
{
    for (size_t i = 0; i < x->nlazies; i++)
        if (x->lazies[i] == p)
            return 1;
    return 0;
}

/* A call of __gb_load (or __gb_load_ix for a lazy address) at the builder:
 * the shadow of the `size` bytes at `p`. */
static LLVMValueRef emit_load(ictx_t *x, LLVMValueRef p, unsigned long long size, uint32_t site)
{
    lazy_args_t la;
    if (is_lazy(x, p) && gep_one_index(x, p, &la)) {
        LLVMTypeRef ty[] = {x->i8p, x->i32, x->i8p, x->i64, x->i8p, x->i64, x->i64, x->i32};
        LLVMValueRef args[8] = {as_i8p(x, p), cu32(x, size)};
        put_lazy_args(x, &la, args + 2);
        args[7] = cu32(x, site);
        return call_rt(x, "__gb_load_ix", x->i8p, ty, args, 8);
    }
    LLVMTypeRef ty[] = {x->i8p, x->i32, x->i8p, x->i32};
    LLVMValueRef args[] = {as_i8p(x, p), cu32(x, size), shadow(x, p), cu32(x, site)};
    return call_rt(x, "__gb_load", x->i8p, ty, args, 4);
}

/* A symbolic operand of an instruction whose result the tracer does not
 * track (integers wider than 64 bits, long double, vectors,
 * insertvalue/insertelement, a select of such values) is pinned
 * before it: concretised with a recorded PIN, never silently. Loads, calls
 * and extractvalue have their own handling. */
static void pin_escapes(ictx_t *x, LLVMValueRef inst, LLVMOpcode op, uint32_t site)
{
    LLVMTypeRef t = LLVMTypeOf(inst);
    if (LLVMGetTypeKind(t) == LLVMVoidTypeKind || tracked_width(t))
        return;
    switch (op) {
    case LLVMLoad: case LLVMCall: case LLVMInvoke: case LLVMExtractValue: case LLVMPHI:
    case LLVMLandingPad: case LLVMAlloca: case LLVMVAArg:
        return;
    default:
        break;
    }
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(inst, (unsigned)i);
        if (LLVMIsABasicBlock(a) || !tracked_width(LLVMTypeOf(a)))
            continue;
        LLVMValueRef sa = shadow(x, a);
        if (sa != x->nullp)
            emit_concretize(x, inst, sa, a, site);
    }
}

/* ---- floating point ------------------------------------------------ */

#include "instrument_fp.inc" /* fcmp, FP arithmetic and conversions, fabs, fmuladd */

static void do_load(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef p = LLVMGetOperand(inst, 0), sp = shadow(x, p);
    LLVMTypeRef t = LLVMTypeOf(inst);
    unsigned w = tracked_width(t);
    if (!w && sp == x->nullp && !is_lazy(x, p))
        return;
    after(x, inst);
    LLVMValueRef s = emit_load(x, p, LLVMStoreSizeOfType(x->td, t), site);
    if (w)
        map_put(x, inst, s);
}

static void do_store(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), p = LLVMGetOperand(inst, 1);
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef sv = tracked_width(t) ? shadow(x, v) : x->nullp;
    LLVMPositionBuilderBefore(x->b, inst);
    sv = emit_fp_bits(x, v, sv, site);
    lazy_args_t la;
    if (is_lazy(x, p) && gep_one_index(x, p, &la)) {
        LLVMTypeRef ty[] = {x->i8p, x->i32, x->i8p, x->i8p, x->i64, x->i8p, x->i64, x->i64, x->i32};
        LLVMValueRef args[9] = {as_i8p(x, p), cu32(x, LLVMStoreSizeOfType(x->td, t)), sv};
        put_lazy_args(x, &la, args + 3);
        args[8] = cu32(x, site);
        call_rt(x, "__gb_store_ix", x->vd, ty, args, 9);
        return;
    }
    LLVMTypeRef ty[] = {x->i8p, x->i32, x->i8p, x->i8p, x->i32};
    LLVMValueRef args[] = {as_i8p(x, p), cu32(x, LLVMStoreSizeOfType(x->td, t)), sv,
                           shadow(x, p), cu32(x, site)};
    call_rt(x, "__gb_store", x->vd, ty, args, 5);
}

/* Whether getelementptr `g` can leave its address shadow to its users:
 * at most one index that may be symbolic, and used only as the address
 * of loads and stores. Most of the address expressions built for such
 * accesses fed only pins that back-off then dropped; __gb_load_ix and
 * __gb_store_ix build one only when it is used. Decided before any
 * instrumentation adds uses of `g`, and remembered in x->lazies. */
static int make_lazy(ictx_t *x, LLVMValueRef g)
{
    lazy_args_t la;
    if (!gep_one_index(x, g, &la))
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsALoadInst(user) && !(LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != g))
            return 0;
    }
    if (x->nlazies == x->cap_lazies) {
        size_t nc = x->cap_lazies ? 2 * x->cap_lazies : 64;
        LLVMValueRef *nl = realloc(x->lazies, nc * sizeof *nl);
        if (!nl)
            return 0;
        x->lazies = nl;
        x->cap_lazies = nc;
    }
    x->lazies[x->nlazies++] = g;
    return 1;
}

/* getelementptr: shadow = base + sum(sext(idx) * scale), built as deltas
 * from the concrete result (see __gb_gep_idx in the runtime). */
static void do_gep(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef base = LLVMGetOperand(inst, 0), sbase = shadow(x, base);
    unsigned n = (unsigned)LLVMGetNumOperands(inst);
    int any = sbase != x->nullp;
    for (unsigned i = 1; i < n && !any; i++)
        any = shadow(x, LLVMGetOperand(inst, i)) != x->nullp;
    if (!any || LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMPointerTypeKind)
        return;
    int lazy = make_lazy(x, inst);
    after(x, inst);
    LLVMValueRef acc = x->nullp;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(inst);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(inst, i), sidx = shadow(x, idx);
        LLVMTypeRef scaled = cur;
        unsigned long long bound = 0; /* elements of the array indexed, 0 = unknown */
        if (i > 1) { /* step into the aggregate */
            if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
                cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(idx));
                continue; /* struct field offsets are constant */
            }
            if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind)
                bound = LLVMGetArrayLength(cur);
            cur = LLVMGetElementType(cur);
            scaled = cur;
        }
        unsigned w = tracked_width(LLVMTypeOf(idx));
        if (sidx == x->nullp || !w)
            continue;
        LLVMValueRef sidx64 = LLVMBuildSExtOrBitCast(x->b, idx, x->i64, "");
        if (bound) {
            LLVMTypeRef cty[] = {x->i8p, x->i64, x->i32, x->i64, x->i32};
            LLVMValueRef cargs[] = {sidx, sidx64, cu32(x, w), cu64(x, bound), cu32(x, site)};
            call_rt(x, "__gb_check_bound", x->vd, cty, cargs, 5);
        }
        if (lazy)
            continue;
        LLVMTypeRef ty[] = {x->i8p, x->i8p, x->i64, x->i32, x->i64};
        LLVMValueRef args[] = {acc, sidx, sidx64, cu32(x, w),
                               cu64(x, LLVMABISizeOfType(x->td, scaled))};
        acc = call_rt(x, "__gb_gep_idx", x->i8p, ty, args, 5);
    }
    if (lazy)
        return;
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i8p, x->i64};
    LLVMValueRef args[] = {sbase, as_u64(x, base), acc, as_u64(x, inst)};
    map_put(x, inst, call_rt(x, "__gb_gep_end", x->i8p, ty, args, 4));
}

/* ---- calls --------------------------------------------------------- */

/* Modelled libc functions: calls to NAME go to __gb_model_NAME in the
 * runtime. One list per runtime file, so each stays next to its models. */
static const char *const models[] = {
#include "models_libc.inc" /* tracer/rt/libc.c: strings, memory, ctype, numbers */
#include "models_io.inc"   /* tracer/rt/io.c: input sources (files, stdio) */
};

/* Points calls of modelled libc functions at the runtime's models. */
static void redirect_model(ictx_t *x, LLVMValueRef inst, LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        if (strcmp(name, models[i]) != 0)
            continue;
        char buf[64];
        snprintf(buf, sizeof buf, "__gb_model_%s", name);
        LLVMValueRef m = LLVMGetNamedFunction(x->m, buf);
        if (!m)
            m = LLVMAddFunction(x->m, buf, LLVMGlobalGetValueType(fn));
        LLVMSetOperand(inst, (unsigned)LLVMGetNumOperands(inst) - 1, m);
        return;
    }
}

/* Scalar intrinsics whose result shadow __gb_intrin builds: name prefix,
 * code, number of integer operands passed. */
static const struct intrin_map {
    const char *prefix;
    int code, nargs;
} intrins[] = {
    {"llvm.bswap.", GB_IN_BSWAP, 1},       {"llvm.ctpop.", GB_IN_CTPOP, 1},
    {"llvm.ctlz.", GB_IN_CTLZ, 1},         {"llvm.cttz.", GB_IN_CTTZ, 1},
    {"llvm.fshl.", GB_IN_FSHL, 3},         {"llvm.fshr.", GB_IN_FSHR, 3},
    {"llvm.abs.", GB_IN_ABS, 1},           {"llvm.smin.", GB_IN_SMIN, 2},
    {"llvm.smax.", GB_IN_SMAX, 2},         {"llvm.umin.", GB_IN_UMIN, 2},
    {"llvm.umax.", GB_IN_UMAX, 2},         {"llvm.uadd.sat.", GB_IN_UADD_SAT, 2},
    {"llvm.usub.sat.", GB_IN_USUB_SAT, 2}, {"llvm.sadd.sat.", GB_IN_SADD_SAT, 2},
    {"llvm.ssub.sat.", GB_IN_SSUB_SAT, 2},
};

/* *.with.overflow: name prefix, code of field 0, code of field 1. */
static const struct ovf_map {
    const char *prefix;
    int val, ovf;
} ovfs[] = {
    {"llvm.uadd.with.overflow.", GB_IN_ADD, GB_IN_UADD_OV},
    {"llvm.sadd.with.overflow.", GB_IN_ADD, GB_IN_SADD_OV},
    {"llvm.usub.with.overflow.", GB_IN_SUB, GB_IN_USUB_OV},
    {"llvm.ssub.with.overflow.", GB_IN_SUB, GB_IN_SSUB_OV},
    {"llvm.umul.with.overflow.", GB_IN_MUL, GB_IN_UMUL_OV},
    {"llvm.smul.with.overflow.", GB_IN_MUL, GB_IN_SMUL_OV},
};

/* __gb_intrin(code, width, a, b, c) after `at`, for the shadow of `key`;
 * `ops` are the intrinsic's integer operands (up to three). */
static void emit_intrin(ictx_t *x, LLVMValueRef at, LLVMValueRef key, int code, unsigned w,
                        LLVMValueRef *ops, int nops)
{
    LLVMValueRef sh[3] = {x->nullp, x->nullp, x->nullp}, v[3];
    int any = 0;
    for (int i = 0; i < nops; i++) {
        sh[i] = shadow(x, ops[i]);
        any |= sh[i] != x->nullp;
    }
    if (!any)
        return;
    after(x, at);
    for (int i = 0; i < 3; i++)
        v[i] = i < nops ? as_u64(x, ops[i]) : cu64(x, 0);
    LLVMTypeRef ty[] = {x->i32, x->i32, x->i8p, x->i64, x->i8p, x->i64, x->i8p, x->i64};
    LLVMValueRef args[] = {cu32(x, (unsigned)code), cu32(x, w), sh[0], v[0], sh[1], v[1],
                           sh[2], v[2]};
    map_put(x, key, call_rt(x, "__gb_intrin", x->i8p, ty, args, 8));
}

static void do_scalar_intrinsic(ictx_t *x, LLVMValueRef inst, const char *name)
{
    unsigned w = tracked_width(LLVMTypeOf(inst));
    if (!w || (LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind &&
               strncmp(name, "llvm.fabs.f", 11) != 0 && strncmp(name, "llvm.fmuladd.f", 14) != 0))
        return;
    if (strncmp(name, "llvm.expect.", 12) == 0) { /* the value passes through */
        map_put(x, inst, shadow(x, LLVMGetOperand(inst, 0)));
        return;
    }
    if (strncmp(name, "llvm.fabs.f", 11) == 0) { /* the sign bit cleared */
        emit_bits_op(x, inst, GBT_OP_AND, LLVMGetOperand(inst, 0), ~0ull >> (65 - w));
        return;
    }
    if (strncmp(name, "llvm.fmuladd.f", 14) == 0) {
        emit_fmuladd(x, inst);
        return;
    }
    for (size_t i = 0; i < sizeof intrins / sizeof intrins[0]; i++) {
        if (strncmp(name, intrins[i].prefix, strlen(intrins[i].prefix)) != 0)
            continue;
        LLVMValueRef ops[3];
        for (int k = 0; k < intrins[i].nargs; k++)
            ops[k] = LLVMGetOperand(inst, (unsigned)k);
        emit_intrin(x, inst, inst, intrins[i].code, w, ops, intrins[i].nargs);
        return;
    }
}

/* extractvalue of a *.with.overflow result: field 0 or 1 from the call's
 * operands. Other aggregates stay concrete. */
static void do_extractvalue(ictx_t *x, LLVMValueRef inst)
{
    LLVMValueRef agg = LLVMGetOperand(inst, 0);
    if (!LLVMIsACallInst(agg) || LLVMGetNumIndices(inst) != 1)
        return;
    LLVMValueRef fn = LLVMGetCalledValue(agg);
    size_t len;
    const char *name = LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
    unsigned field = LLVMGetIndices(inst)[0];
    for (size_t i = 0; i < sizeof ovfs / sizeof ovfs[0]; i++) {
        if (strncmp(name, ovfs[i].prefix, strlen(ovfs[i].prefix)) != 0)
            continue;
        LLVMValueRef ops[2] = {LLVMGetOperand(agg, 0), LLVMGetOperand(agg, 1)};
        unsigned w = tracked_width(LLVMTypeOf(ops[0]));
        if (w && field <= 1)
            emit_intrin(x, inst, inst, field ? ovfs[i].ovf : ovfs[i].val, w, ops, 2);
        return;
    }
}

/* llvm.memcpy/memmove/memset move shadow bytes too; scalar intrinsics get
 * result shadows; the rest (assume, lifetime, dbg, ...) have no integer
 * result to track. Returns 1 if `name` is an intrinsic. */
static int do_intrinsic(ictx_t *x, LLVMValueRef inst, const char *name)
{
    if (strncmp(name, "llvm.", 5) != 0)
        return 0;
    int is_set = strncmp(name, "llvm.memset.", 12) == 0;
    if (strncmp(name, "llvm.memcpy.", 12) == 0 || strncmp(name, "llvm.memmove.", 13) == 0 ||
        is_set) {
        LLVMPositionBuilderBefore(x->b, inst);
        LLVMValueRef dst = as_i8p(x, LLVMGetOperand(inst, 0));
        LLVMValueRef len = as_u64(x, LLVMGetOperand(inst, 2));
        LLVMTypeRef ty[] = {x->i8p, x->i8p, x->i64};
        LLVMValueRef a1 = is_set ? shadow(x, LLVMGetOperand(inst, 1))
                                 : as_i8p(x, LLVMGetOperand(inst, 1));
        LLVMValueRef args[] = {dst, a1, len};
        call_rt(x, is_set ? "__gb_memset" : "__gb_memcpy", x->vd, ty, args, 3);
        return 1;
    }
    if (strcmp(name, "llvm.va_start") == 0) {
        if (x->vasave) {
            after(x, inst);
            LLVMTypeRef ty[] = {x->i8p, LLVMTypeOf(x->vasave)};
            LLVMValueRef args[] = {as_i8p(x, LLVMGetOperand(inst, 0)), x->vasave};
            call_rt(x, "__gb_va_start", x->vd, ty, args, 2);
        }
        return 1;
    }
    if (strcmp(name, "llvm.va_copy") == 0) { /* the copy's shadows are the original's */
        LLVMPositionBuilderBefore(x->b, inst);
        LLVMTypeRef ty[] = {x->i8p, x->i8p, x->i64};
        LLVMValueRef args[] = {as_i8p(x, LLVMGetOperand(inst, 0)),
                               as_i8p(x, LLVMGetOperand(inst, 1)), cu64(x, VA_LIST_SIZE)};
        call_rt(x, "__gb_memcpy", x->vd, ty, args, 3);
        return 1;
    }
    do_scalar_intrinsic(x, inst, name);
    return 1;
}

/* Remembers a block an invoke continues at, for restore_contexts. */
static void add_landing(ictx_t *x, LLVMBasicBlockRef bb)
{
    if (x->nlandings == x->cap_landings) {
        size_t nc = x->cap_landings ? 2 * x->cap_landings : 16;
        LLVMBasicBlockRef *nl = realloc(x->landings, nc * sizeof *nl);
        if (!nl)
            return;
        x->landings = nl;
        x->cap_landings = nc;
    }
    x->landings[x->nlandings++] = bb;
}

/* The callee runs in context fctx * GB_CTX_MUL ^ site; the caller's
 * context comes back after the call (after an invoke: where it continues,
 * see restore_contexts). */
static void enter_context(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMBuildStore(x->b, LLVMBuildXor(x->b, x->fctx_k, cu32(x, site), ""), x->ctx);
    if (LLVMIsAInvokeInst(inst)) {
        add_landing(x, LLVMGetNormalDest(inst));
        add_landing(x, LLVMGetUnwindDest(inst));
        return;
    }
    after(x, inst);
    LLVMBuildStore(x->b, x->fctx, x->ctx);
    LLVMPositionBuilderBefore(x->b, inst);
}

/* Stores run before the blocks' own code; done last, so that no block's
 * instruction ordinals see them. */
static void restore_contexts(ictx_t *x)
{
    for (size_t i = 0; i < x->nlandings; i++) {
        LLVMPositionBuilderBefore(x->b, first_non_phi(x->landings[i]));
        LLVMBuildStore(x->b, x->fctx, x->ctx);
    }
    x->nlandings = 0;
}

/* 1 if some argument of the call is a function pointer: an external
 * function given a callback (qsort) may write memory while instrumented
 * code runs inside it, so the callee tag below cannot tell it apart. */
static int passes_function(LLVMValueRef inst)
{
    unsigned n = LLVMGetNumArgOperands(inst);
    for (unsigned i = 0; i < n; i++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(inst, i));
        if (LLVMGetTypeKind(t) == LLVMPointerTypeKind &&
            LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMFunctionTypeKind)
            return 1;
    }
    return 0;
}

/* The number of bytes to clear behind pointer argument i (a declared
 * parameter), or NULL: its pointee type's size, or for a byte pointer the
 * integer parameter right after it (the `buf, len` convention). Builds at
 * the builder's place. */
static LLVMValueRef clear_size(ictx_t *x, LLVMValueRef inst, LLVMValueRef callee, unsigned i)
{
    unsigned ro = LLVMGetEnumAttributeKindForName("readonly", 8);
    unsigned rn = LLVMGetEnumAttributeKindForName("readnone", 8);
    LLVMValueRef a = LLVMGetOperand(inst, i);
    LLVMTypeRef t = LLVMTypeOf(a);
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind || LLVMIsAConstant(a))
        return NULL;
    if (LLVMGetEnumAttributeAtIndex(callee, i + 1, ro) ||
        LLVMGetEnumAttributeAtIndex(callee, i + 1, rn) ||
        LLVMGetCallSiteEnumAttribute(inst, i + 1, ro) ||
        LLVMGetCallSiteEnumAttribute(inst, i + 1, rn))
        return NULL;
    LLVMTypeRef el = LLVMGetElementType(t);
    int byteptr = LLVMGetTypeKind(el) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(el) == 8;
    if (!byteptr && LLVMTypeIsSized(el) && LLVMGetTypeKind(el) != LLVMFunctionTypeKind)
        return cu64(x, LLVMABISizeOfType(x->td, el));
    if (byteptr && i + 1 < LLVMCountParams(callee) &&
        LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, i + 1))) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(inst, i + 1))) <= 64)
        return as_u64(x, LLVMGetOperand(inst, i + 1));
    return NULL;
}

/* A call to a function declared here and not modelled may run code that is
 * not instrumented: it returns a concrete value, and the memory it was
 * given may have been written with bytes whose shadows would be stale.
 * After the call, each pointer argument not marked readonly has the
 * shadows of the bytes it points to cleared (clear_size). A byte pointer
 * without a length is left alone: reading the memory to guess a length
 * could fault. So are variadic arguments: they follow a format, and the
 * commonest variadic calls (the printf family) only read them, while
 * clearing would erase what a program prints of what it parsed
 * (printf("%s %d", name, v) cleared v bytes of name; at -O2 an 8-byte
 * char array is an i64 and lost all 8). The scanf family is modelled.
 *
 * A declaration is often an instrumented function of another file of the
 * same program (a library's png_read_data, called from pngrutil.c to fill
 * a chunk header): clearing after it would erase every input byte it
 * copied. An instrumented callee's prologue consumes __gb_callee (sets it
 * to NULL), so the clear happens only while __gb_callee still names the
 * callee after the call, unless a callback was passed (see
 * passes_function). */
static void clear_external_args(ictx_t *x, LLVMValueRef inst, LLVMValueRef callee)
{
    if (!LLVMIsAFunction(callee) || !LLVMIsDeclaration(callee) || LLVMIsAInvokeInst(inst))
        return;
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    if (strncmp(name, "__gb_", 5) == 0 || strncmp(name, "llvm.", 5) == 0)
        return;
    /* Built in order at one place right after the call (after() again
     * would put later code before earlier code); the tag is read once,
     * for the first argument to clear (nothing built here changes it). */
    after(x, inst);
    LLVMValueRef still = NULL;
    unsigned n = LLVMGetNumArgOperands(inst), fixed = LLVMCountParams(callee);
    for (unsigned i = 0; i < n && i < fixed; i++) {
        LLVMValueRef size = clear_size(x, inst, callee, i);
        if (!size)
            continue;
        if (!still)
            still = passes_function(inst)
                        ? LLVMConstInt(LLVMInt1TypeInContext(x->c), 1, 0)
                        : LLVMBuildICmp(x->b, LLVMIntEQ,
                                        LLVMBuildLoad2(x->b, x->i8p, x->callee, ""),
                                        as_i8p(x, callee), "");
        LLVMTypeRef ty[] = {x->i8p, x->i64};
        LLVMValueRef args[] = {as_i8p(x, LLVMGetOperand(inst, i)),
                               LLVMBuildSelect(x->b, still, size, cu64(x, 0), "")};
        call_rt(x, "__gb_clear", x->vd, ty, args, 2);
    }
}

/* ---- variadic arguments (docs/tracer.md, "Variadic arguments") ---- */

/* The descriptor byte (gb_abi.h) of argument i, a variadic one, or 0 when
 * the descriptor must stop before it: its place is not one 8-byte slot. */
static unsigned va_class(LLVMValueRef inst, unsigned i)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(inst, i));
    switch (LLVMGetTypeKind(t)) {
    case LLVMDoubleTypeKind:
        return GB_VA_FP | 8;
    case LLVMFloatTypeKind:
        return GB_VA_FP | 4;
    case LLVMPointerTypeKind:
        return LLVMGetCallSiteEnumAttribute(inst, i + 1,
                                            LLVMGetEnumAttributeKindForName("byval", 5))
                   ? 0
                   : 8;
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        return w == 8 || w == 16 || w == 32 || w == 64 ? w / 8 : 0;
    }
    default:
        return 0;
    }
}

/* Before a call through a variadic function type: __gb_vadesc = this
 * call's descriptor, a constant shared by the module's calls with the
 * same one. Calls to declarations too: TIFFSetField is declared in the
 * file that calls it and instrumented in another. */
static void store_vadesc(ictx_t *x, LLVMValueRef inst)
{
    LLVMTypeRef fty = LLVMGetCalledFunctionType(inst);
    if (!LLVMIsFunctionVarArg(fty))
        return;
    unsigned fixed = LLVMCountParamTypes(fty), n = LLVMGetNumArgOperands(inst), k = 0, c;
    unsigned char d[1 + MAX_PARAMS];
    for (unsigned i = fixed; i < n && i < MAX_PARAMS && (c = va_class(inst, i)); i++)
        d[++k] = (unsigned char)c;
    d[0] = (unsigned char)k;
    char name[16 + 2 * (1 + MAX_PARAMS)] = "__gb_vadesc.";
    LLVMValueRef bytes[1 + MAX_PARAMS];
    for (unsigned j = 0; j <= k; j++) {
        snprintf(name + strlen("__gb_vadesc.") + 2 * j, 3, "%02x", d[j]);
        bytes[j] = LLVMConstInt(x->i8, d[j], 0);
    }
    LLVMValueRef g = LLVMGetNamedGlobal(x->m, name);
    if (!g) {
        LLVMTypeRef aty = LLVMArrayType(x->i8, k + 1);
        g = LLVMAddGlobal(x->m, aty, name);
        LLVMSetInitializer(g, LLVMConstArray(x->i8, bytes, k + 1));
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
    }
    LLVMBuildStore(x->b, as_i8p(x, g), x->vadesc);
}

/* 1 if fn calls llvm.va_start. */
static int starts_va(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i) || !LLVMIsAFunction(LLVMGetCalledValue(i)))
                continue;
            size_t len;
            if (strcmp(LLVMGetValueName2(LLVMGetCalledValue(i), &len), "llvm.va_start") == 0)
                return 1;
        }
    return 0;
}

static void do_call(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    if (LLVMIsAInlineAsm(callee))
        return;
    if (LLVMIsAFunction(callee)) {
        size_t len;
        const char *name = LLVMGetValueName2(callee, &len);
        if (strncmp(name, "__gb_", 5) == 0 || do_intrinsic(x, inst, name))
            return;
        redirect_model(x, inst, callee);
        callee = LLVMGetCalledValue(inst);
    }
    LLVMPositionBuilderBefore(x->b, inst);
    unsigned n = LLVMGetNumArgOperands(inst);
    for (unsigned i = 0; i < n && i < MAX_PARAMS; i++) {
        LLVMValueRef a = LLVMGetOperand(inst, i);
        if (!carried(LLVMTypeOf(a)))
            continue;
        LLVMValueRef idx[] = {cu32(x, 0), cu32(x, i)};
        LLVMValueRef slot =
            LLVMBuildInBoundsGEP2(x->b, LLVMGlobalGetValueType(x->params), x->params, idx, 2, "");
        LLVMBuildStore(x->b, shadow(x, a), slot);
    }
    store_vadesc(x, inst);
    LLVMBuildStore(x->b, as_i8p(x, callee), x->callee);
    LLVMBuildStore(x->b, x->nullp, x->ret);
    enter_context(x, inst, site);
    clear_external_args(x, inst, callee);
    if (carried(LLVMTypeOf(inst)) && !LLVMIsAInvokeInst(inst)) {
        after(x, inst);
        map_put(x, inst, LLVMBuildLoad2(x->b, x->i8p, x->ret, ""));
    }
}

/* ---- control flow -------------------------------------------------- */

static void do_branch(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    if (!LLVMIsConditional(inst))
        return;
    LLVMValueRef c = LLVMGetCondition(inst), sc = shadow(x, c);
    if (sc == x->nullp)
        return;
    LLVMPositionBuilderBefore(x->b, inst);
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i32};
    LLVMValueRef args[] = {sc, as_u64(x, c), cu32(x, site)};
    call_rt(x, "__gb_branch", x->vd, ty, args, 3);
}

static void do_switch(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMValueRef v = LLVMGetOperand(inst, 0), sv = shadow(x, v);
    unsigned w = tracked_width(LLVMTypeOf(v));
    unsigned ncases = ((unsigned)LLVMGetNumOperands(inst) - 2) / 2;
    if (sv == x->nullp || !w || ncases == 0)
        return;
    LLVMValueRef *vals = calloc(ncases, sizeof *vals);
    if (!vals)
        return;
    for (unsigned i = 0; i < ncases; i++)
        vals[i] = cu64(x, LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 2 + 2 * i)));
    LLVMTypeRef aty = LLVMArrayType(x->i64, ncases);
    LLVMValueRef g = LLVMAddGlobal(x->m, aty, "__gb_switch_cases");
    LLVMSetInitializer(g, LLVMConstArray(x->i64, vals, ncases));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    free(vals);
    LLVMPositionBuilderBefore(x->b, inst);
    LLVMTypeRef ty[] = {x->i8p, x->i64, x->i32, x->i32, x->i32, LLVMPointerType(x->i64, 0)};
    LLVMValueRef zero[] = {cu32(x, 0), cu32(x, 0)};
    LLVMValueRef args[] = {sv, as_u64(x, v), cu32(x, w), cu32(x, site), cu32(x, ncases),
                           LLVMConstInBoundsGEP2(aty, g, zero, 2)};
    call_rt(x, "__gb_switch", x->vd, ty, args, 6);
}

static void do_ret(ictx_t *x, LLVMValueRef inst)
{
    if (LLVMGetNumOperands(inst) == 0)
        return;
    LLVMValueRef v = LLVMGetOperand(inst, 0);
    if (!carried(LLVMTypeOf(v)))
        return;
    LLVMPositionBuilderBefore(x->b, inst);
    LLVMBuildStore(x->b, shadow(x, v), x->ret);
}

static void do_phi(ictx_t *x, LLVMValueRef inst)
{
    if (!carried(LLVMTypeOf(inst)))
        return;
    after(x, inst);
    LLVMValueRef p = LLVMBuildPhi(x->b, x->i8p, "");
    map_put(x, inst, p);
    if (x->nphis == x->cap_phis) {
        size_t nc = x->cap_phis ? 2 * x->cap_phis : 64;
        LLVMValueRef *np = realloc(x->phis, nc * sizeof *np);
        if (!np)
            return;
        x->phis = np;
        x->cap_phis = nc;
    }
    x->phis[x->nphis++] = inst;
}

static void fix_phis(ictx_t *x)
{
    for (size_t i = 0; i < x->nphis; i++) {
        LLVMValueRef phi = x->phis[i], sp = shadow(x, phi);
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef v = shadow(x, LLVMGetIncomingValue(phi, k));
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, k);
            LLVMAddIncoming(sp, &v, &bb, 1);
        }
    }
    x->nphis = 0;
}

/* ---- functions ----------------------------------------------------- */

/* Parameters take their shadows from __gb_params only when the caller
 * named this function in __gb_callee; uninstrumented callers leave stale
 * values there, so anything else means "concrete". */
static void prologue(ictx_t *x, LLVMValueRef fn)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMPositionBuilderBefore(x->b, LLVMGetFirstInstruction(entry));
    LLVMValueRef tag = LLVMBuildLoad2(x->b, x->i8p, x->callee, "");
    LLVMValueRef ok = LLVMBuildICmp(x->b, LLVMIntEQ, tag, as_i8p(x, fn), "");
    LLVMBuildStore(x->b, x->nullp, x->callee);
    x->fctx = LLVMBuildLoad2(x->b, x->i32, x->ctx, "");
    x->fctx_k = LLVMBuildMul(x->b, x->fctx, cu32(x, GB_CTX_MUL), "");
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n && i < MAX_PARAMS; i++) {
        LLVMValueRef p = LLVMGetParam(fn, i);
        if (!carried(LLVMTypeOf(p)))
            continue;
        LLVMValueRef idx[] = {cu32(x, 0), cu32(x, i)};
        LLVMValueRef slot =
            LLVMBuildInBoundsGEP2(x->b, LLVMGlobalGetValueType(x->params), x->params, idx, 2, "");
        LLVMValueRef s = LLVMBuildLoad2(x->b, x->i8p, slot, "");
        map_put(x, p, LLVMBuildSelect(x->b, ok, s, x->nullp, ""));
    }
    x->vasave = NULL;
    if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) && starts_va(fn)) {
        LLVMValueRef slots = LLVMBuildAlloca(x->b, LLVMArrayType(x->i8p, GB_VA_SAVE), "");
        x->vasave = LLVMBuildBitCast(x->b, slots, LLVMPointerType(x->i8p, 0), "");
        LLVMTypeRef ty[] = {x->i32, x->i32, LLVMTypeOf(x->vasave)};
        LLVMValueRef args[] = {LLVMBuildZExt(x->b, ok, x->i32, ""), cu32(x, n), x->vasave};
        call_rt(x, "__gb_va_enter", x->vd, ty, args, 3);
    }
}

#include "instrument_wide.inc"

static void do_inst(ictx_t *x, LLVMValueRef inst, uint32_t site)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (do_wide(x, inst, op, site))
        return;
    pin_escapes(x, inst, op, site);
    switch (op) {
    case LLVMICmp:
        emit_binop(x, inst, icmp_code(LLVMGetICmpPredicate(inst)), LLVMGetOperand(inst, 0),
                   LLVMGetOperand(inst, 1));
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr:
        do_cast(x, inst, op);
        break;
    case LLVMBitCast:
        do_cast(x, inst, op);
        if (is_fp_type(LLVMTypeOf(LLVMGetOperand(inst, 0))) && !is_fp_type(LLVMTypeOf(inst))) {
            after(x, inst);
            map_put(x, inst, emit_fp_bits(x, LLVMGetOperand(inst, 0), shadow(x, inst), site));
        }
        break;
    case LLVMSelect: do_select(x, inst); break;
    case LLVMPHI: do_phi(x, inst); break;
    case LLVMLoad: do_load(x, inst, site); break;
    case LLVMStore: do_store(x, inst, site); break;
    case LLVMGetElementPtr: do_gep(x, inst, site); break;
    case LLVMCall: case LLVMInvoke: do_call(x, inst, site); break;
    case LLVMBr: do_branch(x, inst, site); break;
    case LLVMSwitch: do_switch(x, inst, site); break;
    case LLVMRet: do_ret(x, inst); break;
    case LLVMFreeze:
        if (carried(LLVMTypeOf(inst)))
            map_put(x, inst, shadow(x, LLVMGetOperand(inst, 0)));
        break;
    case LLVMExtractValue: do_extractvalue(x, inst); break;
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
        if (LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind)
            break;
        emit_divcheck(x, inst, site);
        emit_binop(x, inst, binop_code(op), LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1));
        break;
    default:
        if (do_fp(x, inst, op, site))
            break;
        if (binop_code(op) && LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMIntegerTypeKind)
            emit_binop(x, inst, binop_code(op), LLVMGetOperand(inst, 0),
                       LLVMGetOperand(inst, 1));
        break;
    }
}

/* Where code added at the top of a block goes: after its PHIs and its
 * exception-handling pad (a landingpad must stay first, or the unwinder's
 * invoke edges are broken). */
static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMIsAPHINode(i))
        i = LLVMGetNextInstruction(i);
    while (i && (LLVMIsALandingPadInst(i) || LLVMIsACatchPadInst(i) ||
                 LLVMIsACleanupPadInst(i)))
        i = LLVMGetNextInstruction(i);
    return i;
}

static void cov_counter(ictx_t *x, LLVMBasicBlockRef bb, uint32_t id)
{
    LLVMValueRef area = LLVMGetNamedGlobal(x->m, "__afl_area_ptr");
    if (!area) {
        area = LLVMAddGlobal(x->m, x->i8p, "__afl_area_ptr");
        LLVMSetLinkage(area, LLVMExternalLinkage);
    }
    LLVMPositionBuilderBefore(x->b, first_non_phi(bb));
    LLVMValueRef base = LLVMBuildLoad2(x->b, x->i8p, area, "");
    LLVMValueRef idx = cu64(x, id);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(x->b, x->i8, base, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(x->b, x->i8, p, "");
    LLVMBuildStore(x->b, LLVMBuildAdd(x->b, v, LLVMConstInt(x->i8, 1, 0), ""), p);
}

static void trace_block(ictx_t *x, LLVMBasicBlockRef bb, uint32_t id)
{
    LLVMPositionBuilderBefore(x->b, first_non_phi(bb));
    LLVMTypeRef ty[] = {x->i32};
    LLVMValueRef args[] = {cu32(x, id)};
    call_rt(x, "__gb_block", x->vd, ty, args, 1);
}

/* Blocks in reverse post-order from the entry, then unreachable ones, so
 * that every definition is visited before its non-phi uses. */
static size_t block_order(LLVMValueRef fn, LLVMBasicBlockRef *blocks, size_t n,
                          LLVMBasicBlockRef *out)
{
    char *seen = calloc(n, 1);
    size_t *stack = calloc(n, sizeof *stack), *next = calloc(n, sizeof *next);
    size_t sp = 0, k = n;
    if (!seen || !stack || !next) {
        free(seen), free(stack), free(next);
        return 0;
    }
    (void)fn;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp > 0) { /* iterative DFS; out[] filled from the back = RPO */
        size_t b = stack[sp - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if (next[b] < ns) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, (unsigned)next[b]++);
            for (size_t j = 0; j < n; j++)
                if (blocks[j] == s && !seen[j]) {
                    seen[j] = 1;
                    stack[sp++] = j;
                    break;
                }
            continue;
        }
        out[--k] = blocks[b];
        sp--;
    }
    size_t reach = n - k, m = 0;
    memmove(out, out + k, reach * sizeof *out);
    for (size_t j = 0; j < n; j++)
        if (!seen[j])
            out[reach + m++] = blocks[j];
    free(seen), free(stack), free(next);
    return n;
}

typedef struct fblock {
    LLVMBasicBlockRef bb;
    unsigned ordinal;
    uint32_t id;
} fblock_t;

static unsigned ordinal_of(const fblock_t *fb, size_t n, LLVMBasicBlockRef bb)
{
    for (size_t i = 0; i < n; i++)
        if (fb[i].bb == bb)
            return (unsigned)i;
    return 0;
}

/* Trace mode over one block: snapshot its original instructions first,
 * since instrumenting inserts new ones. */
static int trace_one_block(ictx_t *x, LLVMBasicBlockRef bb, const fblock_t *fb,
                           LLVMValueRef first)
{
    size_t n = 0, cap = 64;
    LLVMValueRef *insts = malloc(cap * sizeof *insts);
    for (LLVMValueRef i = first; i && insts; i = LLVMGetNextInstruction(i)) {
        if (n == cap) {
            LLVMValueRef *ni = realloc(insts, (cap *= 2) * sizeof *ni);
            if (!ni)
                free(insts);
            insts = ni;
        }
        if (insts)
            insts[n++] = i;
    }
    if (!insts)
        return -1;
    trace_block(x, bb, fb->id);
    for (size_t k = 0; k < n; k++)
        do_inst(x, insts[k], gb_ids_site(&x->ids, fb->ordinal, (unsigned)k));
    free(insts);
    return 0;
}

static int instrument_function(ictx_t *x, LLVMValueRef fn, gb_cc_mode_t mode,
                               const uint32_t *bid)
{
    size_t n = LLVMCountBasicBlocks(fn), len;
    x->ids.func = LLVMGetValueName2(fn, &len);
    LLVMBasicBlockRef *blocks = calloc(n, sizeof *blocks), *order = calloc(n, sizeof *order);
    fblock_t *fb = calloc(n, sizeof *fb);
    if (!blocks || !order || !fb) {
        free(blocks), free(order), free(fb);
        return -1;
    }
    LLVMGetBasicBlocks(fn, blocks);
    for (size_t i = 0; i < n; i++) {
        fb[i] = (fblock_t){blocks[i], (unsigned)i,
                           bid ? bid[i] : gb_ids_block(&x->ids, (unsigned)i)};
    }
    int rc = 0;
    if (mode == GB_CC_COV) {
        for (size_t i = 0; i < n; i++)
            cov_counter(x, fb[i].bb, fb[i].id);
    } else {
        smap_clear(&x->map);
        x->nlazies = 0;
        /* The entry block's original code starts after the prologue. */
        LLVMValueRef entry_first = LLVMGetFirstInstruction(blocks[0]);
        prologue(x, fn);
        block_order(fn, blocks, n, order);
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = trace_one_block(x, order[i], &fb[ordinal_of(fb, n, order[i])],
                                 order[i] == blocks[0] ? entry_first
                                                       : LLVMGetFirstInstruction(order[i]));
        fix_phis(x);
        restore_contexts(x);
    }
    free(blocks), free(order), free(fb);
    return rc;
}

/* ---- constant tables ---------------------------------------------- */

/* Appends `fn` to llvm.global_ctors (priority 65535). */
static void add_ctor(ictx_t *x, LLVMValueRef fn)
{
    LLVMTypeRef vfn = LLVMPointerType(LLVMFunctionType(x->vd, NULL, 0, 0), 0);
    LLVMTypeRef fields[] = {x->i32, vfn, x->i8p};
    LLVMTypeRef ety = LLVMStructTypeInContext(x->c, fields, 3, 0);
    LLVMValueRef old = LLVMGetNamedGlobal(x->m, "llvm.global_ctors");
    unsigned n = 0;
    LLVMValueRef elems[256];
    if (old && LLVMGetInitializer(old)) {
        LLVMValueRef init = LLVMGetInitializer(old);
        unsigned k = (unsigned)LLVMGetNumOperands(init);
        for (unsigned i = 0; i < k && n < 255; i++)
            elems[n++] = LLVMGetOperand(init, i);
        if (n)
            ety = LLVMTypeOf(elems[0]);
    }
    LLVMValueRef vals[] = {cu32(x, 65535), LLVMConstPointerCast(fn, vfn), x->nullp};
    elems[n++] = LLVMConstNamedStruct(ety, vals, 3);
    if (old)
        LLVMDeleteGlobal(old);
    LLVMValueRef arr = LLVMConstArray(ety, elems, n);
    LLVMValueRef g = LLVMAddGlobal(x->m, LLVMTypeOf(arr), "llvm.global_ctors");
    LLVMSetInitializer(g, arr);
    LLVMSetLinkage(g, LLVMAppendingLinkage);
}

/* A module constructor that registers every constant global of at most
 * GBT_TABLE_MAX bytes with the runtime, so a symbolic index into one stays
 * symbolic as a table READ (docs/tracer.md, "Constant tables"). */
static void register_tables(ictx_t *x)
{
    LLVMValueRef fn = NULL;
    for (LLVMValueRef g = LLVMGetFirstGlobal(x->m); g; g = LLVMGetNextGlobal(g)) {
        if (!LLVMIsGlobalConstant(g) || LLVMIsDeclaration(g) || !LLVMGetInitializer(g) ||
            LLVMIsThreadLocal(g))
            continue;
        size_t len;
        if (strncmp(LLVMGetValueName2(g, &len), "llvm.", 5) == 0 ||
            strncmp(LLVMGetValueName2(g, &len), "__gb_", 5) == 0)
            continue;
        LLVMTypeRef ty = LLVMGlobalGetValueType(g);
        if (!LLVMTypeIsSized(ty))
            continue;
        unsigned long long size = LLVMABISizeOfType(x->td, ty);
        if (size == 0 || size > GBT_TABLE_MAX)
            continue;
        if (!fn) {
            fn = LLVMAddFunction(x->m, "__gb_register_tables",
                                 LLVMFunctionType(x->vd, NULL, 0, 0));
            LLVMSetLinkage(fn, LLVMInternalLinkage);
            LLVMPositionBuilderAtEnd(x->b, LLVMAppendBasicBlockInContext(x->c, fn, ""));
        }
        LLVMTypeRef ty2[] = {x->i8p, x->i64};
        LLVMValueRef args[] = {LLVMConstPointerCast(g, x->i8p), cu64(x, size)};
        call_rt(x, "__gb_table_register", x->vd, ty2, args, 2);
    }
    if (!fn)
        return;
    LLVMBuildRetVoid(x->b);
    add_ctor(x, fn);
}

/* Instrumented code writes globals (shadow slots, coverage counters) from
 * functions the optimizer was told only read memory; since the object is
 * optimized again after instrumentation, those promises must go, on
 * functions and call sites alike, or loads of __gb_ret get folded away. */
static void strip_memory_attrs(LLVMModuleRef m)
{
    static const char *const names[] = {"readnone", "readonly", "writeonly", "argmemonly",
                                        "inaccessiblememonly", "inaccessiblemem_or_argmemonly",
                                        "speculatable"};
    unsigned kinds[sizeof names / sizeof names[0]];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        kinds[k] = LLVMGetEnumAttributeKindForName(names[k], strlen(names[k]));
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        if (strncmp(LLVMGetValueName2(fn, &len), "llvm.", 5) == 0)
            continue; /* intrinsics keep theirs: we never add code inside them */
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kinds[k]);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i))
                    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
                        LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, kinds[k]);
    }
}

int gb_cc_instrument(LLVMModuleRef m, gb_cc_mode_t mode, unsigned *collisions, char *err,
                     size_t errlen)
{
    strip_memory_attrs(m);
    gb_blockids_t bids;
    if (gb_ids_number(m, &bids) != 0 || gb_cc_emit_cfg(m, &bids) != 0) {
        gb_ids_free(&bids);
        snprintf(err, errlen, "out of memory while writing the CFG");
        return -1;
    }
    *collisions = bids.moved;
    ictx_t x = {0};
    x.m = m;
    x.c = LLVMGetModuleContext(m);
    x.b = LLVMCreateBuilderInContext(x.c);
    x.td = LLVMGetModuleDataLayout(m);
    x.i1 = LLVMInt1TypeInContext(x.c);
    x.i8 = LLVMInt8TypeInContext(x.c);
    x.i32 = LLVMInt32TypeInContext(x.c);
    x.i64 = LLVMInt64TypeInContext(x.c);
    x.i8p = LLVMPointerType(x.i8, 0);
    x.vd = LLVMVoidTypeInContext(x.c);
    x.nullp = LLVMConstNull(x.i8p);
    size_t len;
    x.ids.module = gb_ids_module_key(LLVMGetSourceFileName(m, &len));
    if (mode == GB_CC_TRACE) {
        x.params = tls_global(&x, "__gb_params", LLVMArrayType(x.i8p, MAX_PARAMS));
        x.ret = tls_global(&x, "__gb_ret", x.i8p);
        x.callee = tls_global(&x, "__gb_callee", x.i8p);
        x.vadesc = tls_global(&x, "__gb_vadesc", x.i8p);
        x.ctx = tls_global(&x, "__gb_ctx", x.i32);
    }
    x.wb = LLVMCreateBuilderInContext(x.c);
    int rc = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && rc == 0;
         fn = LLVMGetNextFunction(fn)) {
        if (gb_ids_numbered(fn))
            rc = instrument_function(&x, fn, mode, gb_ids_of(&bids, fn));
    }
    if (rc == 0 && mode == GB_CC_TRACE)
        register_tables(&x);
    if (rc != 0)
        snprintf(err, errlen, "out of memory while instrumenting");
    gb_ids_free(&bids);
    smap_free(&x.map);
    free(x.phis);
    free(x.lazies);
    free(x.landings);
    LLVMDisposeBuilder(x.wb);
    LLVMDisposeBuilder(x.b);
    return rc;
}
