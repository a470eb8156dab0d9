/* SPDX-License-Identifier: Apache-2.0 */
/* The static CFG of a module (blocks, successors, direct callees, the
 * signatures of indirect calls and functions, branch and switch sites,
 * the source lines each block's instructions came from),
 * written as words into a non-allocated `.gb_cfg` section that the linker
 * concatenates across objects. docs/cfg-format.md is the spec,
 * tracer/gbcfg.h its constants; generational/cfg.c reads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"
#include "gbcfg.h"

typedef struct words {
    uint32_t *v;
    size_t n, cap;
    int oom;
} words_t;

static void put(words_t *w, uint32_t x)
{
    if (w->n == w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 1024;
        uint32_t *nv = realloc(w->v, nc * sizeof *nv);
        if (!nv) {
            w->oom = 1;
            return;
        }
        w->v = nv;
        w->cap = nc;
    }
    w->v[w->n++] = x;
}

/* A string: byte length, then the bytes, little-endian, zero-padded. */
static void put_str(words_t *w, const char *s, size_t len)
{
    put(w, (uint32_t)len);
    for (size_t i = 0; i < len; i += 4) {
        uint32_t x = 0;
        for (size_t k = 0; k < 4 && i + k < len; k++)
            x |= (uint32_t)(uint8_t)s[i + k] << (8 * k);
        put(w, x);
    }
}

/* The function a call's callee operand names, looking through pointer
 * casts (K&R prototypes call through a bitcast); NULL for anything else. */
static LLVMValueRef direct_callee(LLVMValueRef call)
{
    LLVMValueRef v = LLVMGetCalledValue(call);
    while (v && LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast)
        v = LLVMGetOperand(v, 0);
    return v && LLVMIsAFunction(v) ? v : NULL;
}

static int is_call(LLVMValueRef i)
{
    return LLVMIsACallInst(i) || LLVMIsAInvokeInst(i) || LLVMIsACallBrInst(i);
}

/* A function is address-taken when some use is not the callee operand of
 * a call: it can then be called from places the CFG does not name. */
static int address_taken(LLVMValueRef fn)
{
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!is_call(user) || LLVMGetCalledValue(user) != fn)
            return 1;
        unsigned nargs = LLVMGetNumArgOperands(user);
        for (unsigned a = 0; a < nargs; a++)
            if (LLVMGetOperand(user, a) == fn)
                return 1;
    }
    return 0;
}

/* ---- loose signatures (docs/cfg-format.md, "Signatures") ------------ */

/* The module's signatures, each once; symbols, functions and indirect
 * calls name theirs by its index here. */
typedef struct sigtab {
    char **v;
    size_t n, cap;
    int oom;
} sigtab_t;

/* One type's kind: v, iN, f, d, p (every pointer alike), or x. */
static size_t put_kind(char *s, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        return (size_t)sprintf(s, "v");
    case LLVMIntegerTypeKind:
        return (size_t)sprintf(s, "i%u", LLVMGetIntTypeWidth(t));
    case LLVMFloatTypeKind:
        return (size_t)sprintf(s, "f");
    case LLVMDoubleTypeKind:
        return (size_t)sprintf(s, "d");
    case LLVMPointerTypeKind:
        return (size_t)sprintf(s, "p");
    default:
        return (size_t)sprintf(s, "x"); /* long double, vectors, returned aggregates */
    }
}

/* "ret(p1,...,pn)", with ",..." (or "..." alone) before the ")" when
 * `varargs`; NULL when out of memory. */
static char *type_sig(LLVMTypeRef ft, int varargs)
{
    unsigned np = LLVMCountParamTypes(ft);
    LLVMTypeRef *pt = calloc(np ? np : 1, sizeof *pt);
    char *s = malloc(20 + 12 * (size_t)np); /* a kind is at most "i" and 7 digits */
    if (!pt || !s) {
        free(pt);
        free(s);
        return NULL;
    }
    LLVMGetParamTypes(ft, pt);
    size_t n = put_kind(s, LLVMGetReturnType(ft));
    s[n++] = '(';
    for (unsigned i = 0; i < np; i++) {
        if (i)
            s[n++] = ',';
        n += put_kind(s + n, pt[i]);
    }
    sprintf(s + n, "%s)", !varargs ? "" : np ? ",..." : "...");
    free(pt);
    return s;
}

/* The index of string `s` in `t` (the signature table's type serves for
 * any list of strings: signatures, file names), added if new, which takes
 * `s` over; GBCFG_SIG_UNKNOWN when out of memory. */
static uint32_t intern_str(sigtab_t *t, char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i], s) == 0) {
            free(s);
            return (uint32_t)i;
        }
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        char **nv = realloc(t->v, nc * sizeof *nv);
        if (!nv) {
            free(s);
            t->oom = 1;
            return GBCFG_SIG_UNKNOWN;
        }
        t->v = nv;
        t->cap = nc;
    }
    t->v[t->n] = s;
    return (uint32_t)t->n++;
}

/* The index of ft's signature, added to the table if new. */
static uint32_t intern(sigtab_t *t, LLVMTypeRef ft, int varargs)
{
    char *s = type_sig(ft, varargs);
    if (!s) {
        t->oom = 1;
        return GBCFG_SIG_UNKNOWN;
    }
    return intern_str(t, s);
}

static int skipped_fn(LLVMValueRef fn);

/* ---- source lines (docs/cfg-format.md, "Source lines") -------------- */

/* The file an instruction's debug location names: the directory joined to
 * a relative file name, as the user would name it; NULL when the
 * instruction has no location (no -g, or code the compiler made up) or
 * when out of memory. */
static char *loc_file(LLVMValueRef i)
{
    unsigned flen = 0, dlen = 0;
    if (LLVMGetDebugLocLine(i) == 0)
        return NULL;
    const char *f = LLVMGetDebugLocFilename(i, &flen);
    const char *d = LLVMGetDebugLocDirectory(i, &dlen);
    if (!f || flen == 0)
        return NULL;
    int join = f[0] != '/' && d && dlen > 0;
    char *s = malloc((size_t)flen + (join ? dlen + 1u : 0u) + 1);
    if (!s)
        return NULL;
    size_t n = 0;
    if (join) {
        memcpy(s, d, dlen);
        n = dlen;
        s[n++] = '/';
    }
    memcpy(s + n, f, flen);
    s[n + flen] = '\0';
    return s;
}

/* A block's (file, line) pairs, sorted, each once. */
typedef struct lines {
    uint64_t *v; /* file << 32 | line */
    size_t n, cap;
} lines_t;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Writes L, then L pairs (file index, line) of the block's instructions. */
static void put_lines(words_t *w, sigtab_t *files, LLVMBasicBlockRef bb)
{
    lines_t l = {0};
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        char *f = loc_file(i);
        if (!f)
            continue;
        uint32_t fi = intern_str(files, f);
        if (fi == GBCFG_SIG_UNKNOWN)
            continue;
        if (l.n == l.cap) {
            size_t nc = l.cap ? 2 * l.cap : 8;
            uint64_t *nv = realloc(l.v, nc * sizeof *nv);
            if (!nv) {
                w->oom = 1;
                break;
            }
            l.v = nv;
            l.cap = nc;
        }
        l.v[l.n++] = (uint64_t)fi << 32 | LLVMGetDebugLocLine(i);
    }
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, cmp_u64);
    size_t n = 0;
    for (size_t k = 0; k < l.n; k++)
        if (k == 0 || l.v[k] != l.v[k - 1])
            l.v[n++] = l.v[k];
    put(w, (uint32_t)n);
    for (size_t k = 0; k < n; k++) {
        put(w, (uint32_t)(l.v[k] >> 32));
        put(w, (uint32_t)l.v[k]);
    }
    free(l.v);
}

/* The module's source files, in the order its blocks first name them. */
static void put_files(words_t *w, LLVMModuleRef m, sigtab_t *files)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (!gb_ids_numbered(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                char *f = loc_file(i);
                if (f)
                    intern_str(files, f);
            }
    }
    put(w, (uint32_t)files->n);
    for (size_t i = 0; i < files->n; i++)
        put_str(w, files->v[i], strlen(files->v[i]));
}

/* `T (...)`: how clang types a function declared without a prototype,
 * `int f();`. It says nothing about the parameters. */
static int unprototyped(LLVMTypeRef ft)
{
    return LLVMIsFunctionVarArg(ft) && LLVMCountParamTypes(ft) == 0;
}

static uint32_t fn_sig(sigtab_t *t, LLVMValueRef fn)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    if (LLVMGetTypeKind(ft) != LLVMFunctionTypeKind || unprototyped(ft))
        return GBCFG_SIG_UNKNOWN;
    return intern(t, ft, LLVMIsFunctionVarArg(ft));
}

/* The signature of what an indirect call calls: the type of the pointer
 * it calls through. A call through `int (*)()` passes the promoted
 * arguments clang typed the call with (as `T (args, ...)`): those are the
 * callee's parameters, and it is not variadic. Unknown for a constant
 * callee that is no function (an alias, an address cast from an integer)
 * and for a call whose type is not its pointer's. */
static uint32_t call_sig(sigtab_t *t, LLVMValueRef call)
{
    LLVMValueRef v = LLVMGetCalledValue(call);
    LLVMTypeRef ft = LLVMGetCalledFunctionType(call), pt = LLVMTypeOf(v);
    if (LLVMIsAConstant(v) || LLVMGetTypeKind(pt) != LLVMPointerTypeKind)
        return GBCFG_SIG_UNKNOWN;
    LLVMTypeRef pointee = LLVMGetElementType(pt);
    if (pointee && LLVMGetTypeKind(pointee) == LLVMFunctionTypeKind && unprototyped(pointee))
        return intern(t, ft, 0);
    if (pointee != ft)
        return GBCFG_SIG_UNKNOWN;
    return intern(t, ft, LLVMIsFunctionVarArg(ft));
}

static int is_local(LLVMValueRef fn)
{
    LLVMLinkage l = LLVMGetLinkage(fn);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

static uint32_t sym_flags(LLVMValueRef fn)
{
    return (is_local(fn) ? GBCFG_S_LOCAL : 0) | (address_taken(fn) ? GBCFG_S_ADDR_TAKEN : 0);
}

static int skipped_fn(LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    return strncmp(name, "llvm.", 5) == 0 || strncmp(name, "__gb_", 5) == 0;
}

/* The symbol table: every function of the module (declared or defined,
 * intrinsics and the runtime's left out), in module order; calls name
 * their callee by its index here. `syms` is sorted by address for lookup. */
typedef struct sym {
    LLVMValueRef fn;
    uint32_t index;
} sym_t;

typedef struct symtab {
    sym_t *v;
    size_t n;
} symtab_t;

static int sym_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const sym_t *)a)->fn, y = (uintptr_t)((const sym_t *)b)->fn;
    return x < y ? -1 : x > y;
}

static uint32_t sym_index(const symtab_t *t, LLVMValueRef fn)
{
    sym_t key = {fn, 0};
    const sym_t *hit = bsearch(&key, t->v, t->n, sizeof *t->v, sym_cmp);
    return hit ? hit->index : UINT32_MAX; /* cannot happen: every function is listed */
}

static int put_syms(words_t *w, LLVMModuleRef m, symtab_t *t, sigtab_t *sigs)
{
    size_t n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        n += !skipped_fn(fn);
    t->v = calloc(n ? n : 1, sizeof *t->v);
    if (!t->v)
        return -1;
    put(w, (uint32_t)n);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (skipped_fn(fn))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        put(w, sym_flags(fn));
        put_str(w, name, len);
        put(w, fn_sig(sigs, fn));
        t->v[t->n] = (sym_t){fn, (uint32_t)t->n};
        t->n++;
    }
    qsort(t->v, t->n, sizeof *t->v, sym_cmp);
    return 0;
}

static int returns_twice(LLVMValueRef call, LLVMValueRef callee)
{
    static unsigned kind;
    if (!kind)
        kind = LLVMGetEnumAttributeKindForName("returns_twice", 13);
    if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind))
        return 1;
    return callee && LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind);
}

/* llvm.trap, llvm.debugtrap, llvm.ubsantrap: __builtin_trap() and its kin. */
static int is_trap(LLVMValueRef callee)
{
    size_t len;
    const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
    return !strcmp(name, "llvm.trap") || !strcmp(name, "llvm.debugtrap") ||
           !strcmp(name, "llvm.ubsantrap");
}

static unsigned ordinal_of(LLVMBasicBlockRef *blocks, size_t n, LLVMBasicBlockRef bb)
{
    for (size_t i = 0; i < n; i++)
        if (blocks[i] == bb)
            return (unsigned)i;
    return UINT32_MAX; /* cannot happen: successors are blocks of the function */
}

/* A call the CFG lists: the runtime's, intrinsics and inline assembly
 * are left out. Sets *direct to the function a direct call names. */
static int listed_call(LLVMValueRef i, LLVMValueRef *direct)
{
    *direct = NULL;
    if (!is_call(i) || LLVMIsAInlineAsm(LLVMGetCalledValue(i)))
        return 0;
    *direct = direct_callee(i);
    return !*direct || !skipped_fn(*direct);
}

/* The block's direct callees (symbol indices), then its indirect calls
 * (signature indices), each list after its count, in instruction order. */
static void put_calls(words_t *w, const symtab_t *syms, sigtab_t *sigs, LLVMBasicBlockRef bb)
{
    uint32_t n[2] = {0, 0};
    LLVMValueRef f;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (listed_call(i, &f))
            n[f == NULL]++;
    for (int indirect = 0; indirect < 2; indirect++) {
        put(w, n[indirect]);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (listed_call(i, &f) && (f == NULL) == indirect)
                put(w, f ? sym_index(syms, f) : call_sig(sigs, i));
    }
}

/* One block: id, flags | terminator kind << 8, site, successors, calls,
 * source lines.
 * The site is numbered exactly as trace mode numbers the terminator: the
 * ordinal of the instruction among the block's original instructions;
 * the id is bid[ord], the function's ids from gb_ids_number. */
static void put_block(words_t *w, const symtab_t *syms, sigtab_t *sigs, sigtab_t *files,
                      const gb_ids_t *ids, const uint32_t *bid, LLVMBasicBlockRef *blocks,
                      size_t n, unsigned ord, const uint8_t *unreached)
{
    uint32_t flags = 0, kind = GBCFG_T_OTHER, site = 0;
    unsigned k = 0, any_call = 0;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[ord]), f;
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[ord]); i;
         i = LLVMGetNextInstruction(i), k++) {
        any_call |= (unsigned)is_call(i);
        if (is_call(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i))) {
            if (listed_call(i, &f) && !f)
                flags |= GBCFG_B_INDIRECT;
            if (returns_twice(i, direct_callee(i)))
                flags |= GBCFG_B_SETJMP;
            if (is_trap(direct_callee(i)))
                flags |= GBCFG_B_TRAP;
        }
        if (i == term)
            site = gb_ids_site(ids, ord, k);
    }
    LLVMOpcode op = term ? LLVMGetInstructionOpcode(term) : LLVMUnreachable;
    if (op == LLVMRet || op == LLVMResume)
        flags |= GBCFG_B_RET;
    if (op == LLVMIndirectBr)
        flags |= GBCFG_B_INDIRECT;          /* its targets are listed as successors anyway */
    if (op == LLVMUnreachable && !any_call) /* llvm.trap + unreachable does run */
        flags |= GBCFG_B_DEAD;
    if (unreached && unreached[ord])
        flags |= GBCFG_B_UNREACHED;
    if (op == LLVMBr && LLVMIsConditional(term))
        kind = GBCFG_T_BR;
    else if (op == LLVMSwitch)
        kind = GBCFG_T_SWITCH;
    put(w, bid[ord]);
    put(w, flags | kind << GBCFG_KIND_SHIFT);
    put(w, kind == GBCFG_T_OTHER ? 0 : site);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    put(w, ns);
    for (unsigned s = 0; s < ns; s++)
        put(w, ordinal_of(blocks, n, LLVMGetSuccessor(term, s)));
    put_calls(w, syms, sigs, blocks[ord]);
    put_lines(w, files, blocks[ord]);
}

static int put_function(words_t *w, const symtab_t *syms, sigtab_t *sigs, sigtab_t *files,
                        gb_ids_t *ids, const uint32_t *bid, LLVMValueRef fn,
                        const uint8_t *unreached)
{
    size_t len, n = LLVMCountBasicBlocks(fn);
    const char *name = LLVMGetValueName2(fn, &len);
    LLVMBasicBlockRef *blocks = calloc(n ? n : 1, sizeof *blocks);
    if (!blocks)
        return -1;
    LLVMGetBasicBlocks(fn, blocks);
    ids->func = name;
    put(w, sym_flags(fn));
    put_str(w, name, len);
    put(w, fn_sig(sigs, fn));
    put(w, (uint32_t)n);
    for (size_t b = 0; b < n; b++)
        put_block(w, syms, sigs, files, ids, bid, blocks, n, (unsigned)b, unreached);
    free(blocks);
    return 0;
}

/* The signature table, written before the symbols that use it: every
 * signature the record names, found in a first pass in the order the
 * record names them. */
static void put_sigs(words_t *w, LLVMModuleRef m, sigtab_t *sigs)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (skipped_fn(fn))
            continue;
        fn_sig(sigs, fn);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef f;
                if (listed_call(i, &f) && !f)
                    call_sig(sigs, i);
            }
    }
    put(w, (uint32_t)sigs->n);
    for (size_t i = 0; i < sigs->n; i++)
        put_str(w, sigs->v[i], strlen(sigs->v[i]));
}

/* Module inline asm that puts the words in `.gb_cfg` (no SHF_ALLOC: it is
 * never loaded, and --gc-sections keeps it). */
static int emit_section(LLVMModuleRef m, const words_t *w)
{
    size_t cap = 96 + w->n * 12, len = 0;
    char *s = malloc(cap);
    if (!s)
        return -1;
    len += (size_t)snprintf(s, cap, "\t.pushsection .gb_cfg,\"\",@progbits\n\t.p2align 2\n");
    for (size_t i = 0; i < w->n; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s0x%x%s", i % 8 ? "," : "\t.long ", w->v[i],
                                i % 8 == 7 || i + 1 == w->n ? "\n" : "");
    len += (size_t)snprintf(s + len, cap - len, "\t.popsection\n");
    LLVMAppendModuleInlineAsm(m, s, len);
    free(s);
    return 0;
}

int gb_cc_emit_cfg(LLVMModuleRef m, const gb_blockids_t *bids)
{
    words_t w = {0};
    size_t len;
    const char *module = LLVMGetSourceFileName(m, &len);
    gb_ids_t ids = {gb_ids_module_key(module), NULL};
    uint32_t nfuncs = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        nfuncs += (uint32_t)gb_ids_numbered(fn);
    put(&w, GBCFG_MAGIC);
    put(&w, GBCFG_VERSION);
    put(&w, 0); /* record length in words, filled in below */
    put_str(&w, module, len);
    sigtab_t sigs = {0};
    put_sigs(&w, m, &sigs);
    sigtab_t files = {0};
    put_files(&w, m, &files);
    symtab_t syms = {0};
    int rc = put_syms(&w, m, &syms, &sigs);
    put(&w, nfuncs);
    gb_fold_t fold = {0};
    if (rc == 0)
        rc = gb_cc_fold_dead(m, &fold);
    size_t fi = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && rc == 0; fn = LLVMGetNextFunction(fn))
        if (gb_ids_numbered(fn)) {
            rc = put_function(&w, &syms, &sigs, &files, &ids, gb_ids_of(bids, fn), fn,
                              fi < fold.n ? fold.dead[fi] : NULL);
            fi++;
        }
    if (fold.dead)
        gb_cc_fold_free(&fold);
    free(syms.v);
    rc = rc == 0 && !sigs.oom && !files.oom && !w.oom ? 0 : -1;
    for (size_t i = 0; i < sigs.n; i++)
        free(sigs.v[i]);
    free(sigs.v);
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (rc == 0) {
        w.v[2] = (uint32_t)w.n;
        rc = emit_section(m, &w);
    }
    free(w.v);
    return rc;
}
