/* SPDX-License-Identifier: Apache-2.0 */
/* Blocks no run can reach because the branches into them test constants:
 * a copy of the module gets its non-escaping locals promoted to registers
 * (mem2reg), then each conditional branch whose condition is a constant,
 * or a comparison of two integer constants, keeps only the successor it
 * takes. A block the function's entry no longer reaches is marked
 * UNREACHED in the CFG (docs/cfg-format.md). Nothing else is assumed:
 * an undefined value (an uninitialised local) is no constant here — each
 * local first gets a value mem2reg cannot see through. */
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"

/* mem2reg turns a read of a local no path has written into `undef`, and
 * folds phi(1, undef) to 1: `int lock; if (c) lock = 1; if (lock != 1)`
 * would look decided, though the stack's garbage decides it at run time.
 * So each scalar local of the copy is first set to a load from an
 * external global of its type, a value no pass can know. */
static void opaque_locals(LLVMModuleRef cl)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(cl));
    for (LLVMValueRef fn = LLVMGetFirstFunction(cl); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsAAllocaInst(i) || !LLVMGetNextInstruction(i))
                    continue;
                LLVMTypeRef t = LLVMGetAllocatedType(i);
                LLVMTypeKind k = LLVMGetTypeKind(t);
                if (k == LLVMArrayTypeKind || k == LLVMStructTypeKind || !LLVMTypeIsSized(t))
                    continue; /* reached through GEPs and memcpy: mem2reg leaves them */
                LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(i));
                LLVMValueRef g = LLVMAddGlobal(cl, t, "gb.opaque");
                LLVMBuildStore(b, LLVMBuildLoad2(b, t, g, ""), i);
            }
    LLVMDisposeBuilder(b);
}

/* The value of an i1 condition when it is a constant: 0 or 1; -1 if not. */
static int const_cond(LLVMValueRef c)
{
    if (LLVMIsAConstantInt(c))
        return (int)LLVMConstIntGetZExtValue(c);
    if (!LLVMIsAICmpInst(c))
        return -1;
    LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
    if (!LLVMIsAConstantInt(a) || !LLVMIsAConstantInt(b))
        return -1;
    LLVMValueRef r = LLVMConstICmp(LLVMGetICmpPredicate(c), a, b);
    return r && LLVMIsAConstantInt(r) ? (int)LLVMConstIntGetZExtValue(r) : -1;
}

static unsigned ordinal(LLVMBasicBlockRef *bbs, unsigned n, LLVMBasicBlockRef bb)
{
    for (unsigned i = 0; i < n; i++)
        if (bbs[i] == bb)
            return i;
    return n;
}

/* dead[i] = 1 for each block of fn (the copy) its entry cannot reach. */
static int fold_function(LLVMValueRef fn, uint8_t *dead, unsigned n)
{
    LLVMBasicBlockRef *bbs = calloc(n, sizeof *bbs);
    unsigned *queue = calloc(n, sizeof *queue);
    if (!bbs || !queue) {
        free(bbs);
        free(queue);
        return -1;
    }
    LLVMGetBasicBlocks(fn, bbs);
    memset(dead, 1, n);
    unsigned qh = 0, qt = 0;
    dead[0] = 0;
    queue[qt++] = 0;
    while (qh < qt) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bbs[queue[qh++]]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        int only = -1; /* the one successor a constant condition takes */
        if (term && LLVMGetInstructionOpcode(term) == LLVMBr && LLVMIsConditional(term)) {
            int v = const_cond(LLVMGetCondition(term));
            only = v < 0 ? -1 : v ? 0 : 1; /* successor 0 is taken when true */
        }
        for (unsigned s = 0; s < ns; s++) {
            if (only >= 0 && (int)s != only)
                continue;
            unsigned o = ordinal(bbs, n, LLVMGetSuccessor(term, s));
            if (o < n && dead[o]) {
                dead[o] = 0;
                queue[qt++] = o;
            }
        }
    }
    free(bbs);
    free(queue);
    return 0;
}

void gb_cc_fold_free(gb_fold_t *f)
{
    for (size_t i = 0; f->dead && i < f->n; i++)
        free(f->dead[i]);
    free(f->dead);
    memset(f, 0, sizeof *f);
}

int gb_cc_fold_dead(LLVMModuleRef m, gb_fold_t *out)
{
    memset(out, 0, sizeof *out);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        out->n += gb_ids_numbered(fn);
    out->dead = calloc(out->n ? out->n : 1, sizeof *out->dead);
    if (!out->dead)
        return -1;
    LLVMModuleRef cl = LLVMCloneModule(m);
    if (cl)
        opaque_locals(cl);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = cl && po ? LLVMRunPasses(cl, "function(mem2reg)", NULL, po) : NULL;
    int ok = cl && po && !err;
    if (err)
        LLVMConsumeError(err);
    LLVMValueRef f = LLVMGetFirstFunction(m), g = ok ? LLVMGetFirstFunction(cl) : NULL;
    /* The copy has the same functions and blocks in the same order; a
     * function where it does not (cannot happen) is left unmarked. */
    for (size_t i = 0; ok && f && g; f = LLVMGetNextFunction(f), g = LLVMGetNextFunction(g)) {
        size_t la, lb;
        const char *na = LLVMGetValueName2(f, &la), *nb = LLVMGetValueName2(g, &lb);
        if (la != lb || memcmp(na, nb, la) != 0)
            break;
        if (!gb_ids_numbered(f))
            continue;
        unsigned n = LLVMCountBasicBlocks(f);
        if (n && n == LLVMCountBasicBlocks(g) && (out->dead[i] = calloc(n, 1)) &&
            fold_function(g, out->dead[i], n) != 0) {
            free(out->dead[i]);
            out->dead[i] = NULL;
        }
        i++;
    }
    if (po)
        LLVMDisposePassBuilderOptions(po);
    if (cl)
        LLVMDisposeModule(cl);
    return 0;
}
