/* SPDX-License-Identifier: Apache-2.0 */
/* Prints a trace's path constraint as SMT-LIB2. Shared subterms become
 * define-funs so the text stays linear in the DAG, never exponential. */
#include <inttypes.h>
#include <stdlib.h>

#include "symbolic_int.h"

/* Deepest chain of single-use terms printed inline; deeper ones are named,
 * which bounds the printer's recursion on long chains. */
#define GB_SMT2_INLINE_DEPTH 16

typedef struct printer {
    FILE *f;
    const gb_dag_t *d;
    const uint32_t *list; /* reachable nodes, ascending */
    size_t n;
    uint8_t *named;       /* per list position: printed as nK */
} printer_t;

static const char *op_name(unsigned op)
{
    static const char *const names[] = {
        [GBT_OP_ADD] = "bvadd",   [GBT_OP_SUB] = "bvsub",   [GBT_OP_MUL] = "bvmul",
        [GBT_OP_UDIV] = "bvudiv", [GBT_OP_SDIV] = "bvsdiv", [GBT_OP_UREM] = "bvurem",
        [GBT_OP_SREM] = "bvsrem", [GBT_OP_SHL] = "bvshl",   [GBT_OP_LSHR] = "bvlshr",
        [GBT_OP_ASHR] = "bvashr", [GBT_OP_AND] = "bvand",   [GBT_OP_OR] = "bvor",
        [GBT_OP_XOR] = "bvxor",   [GBT_OP_NOT] = "bvnot",   [GBT_OP_NEG] = "bvneg",
        [GBT_OP_CONCAT] = "concat", [GBT_OP_EQ] = "=",      [GBT_OP_NE] = "=",
        [GBT_OP_ULT] = "bvult",   [GBT_OP_ULE] = "bvule",   [GBT_OP_UGT] = "bvugt",
        [GBT_OP_UGE] = "bvuge",   [GBT_OP_SLT] = "bvslt",   [GBT_OP_SLE] = "bvsle",
        [GBT_OP_SGT] = "bvsgt",   [GBT_OP_SGE] = "bvsge",
    };
    return op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

static int is_leaf(const gb_node_t *x)
{
    return x->op == GBT_OP_CONST || x->op == GBT_OP_INPUT;
}

static void print_term(printer_t *p, uint32_t node);

void gb_input_name(uint64_t off, char *buf, size_t cap)
{
    if (gbt_is_len_offset(off))
        snprintf(buf, cap, "len%u", (unsigned)(off - GBT_LEN_OFFSET));
    else
        snprintf(buf, cap, "b%" PRIu64, off);
}

static void print_var(FILE *f, uint64_t off)
{
    char name[32];
    gb_input_name(off, name, sizeof name);
    fputs(name, f);
}

/* A reference to a node: its name, its literal, or its inline term. */
static void print_ref(printer_t *p, uint32_t node)
{
    const gb_node_t *x = &p->d->nodes[node];
    if (x->op == GBT_OP_INPUT)
        print_var(p->f, x->imm);
    else if (x->op == GBT_OP_CONST)
        fprintf(p->f, "(_ bv%" PRIu64 " %u)", x->imm, x->width);
    else if (p->named[gb_dag_pos(p->list, p->n, node)])
        fprintf(p->f, "n%u", node);
    else
        print_term(p, node);
}

/* The arrays' index width: wider than any offset (64 bits) so that offset
 * + 7 cannot wrap around. With 64-bit indices a READ at an offset within
 * 7 of 2^64 read the table's first bytes, where the evaluator and the
 * solver read 0 past the end (found by tests/fuzz's smt2 round trip). */
#define GB_SMT2_INDEX 72u

/* READ: (concat (select tK (bvadd off 7)) ... (select tK off)), with the
 * offset zero-extended to the arrays' index. */
static void print_read(printer_t *p, const gb_node_t *x, unsigned aw)
{
    unsigned n = x->width / 8u;
    if (n > 1)
        fputs("(concat", p->f);
    for (unsigned i = n; i-- > 0;) {
        fprintf(p->f, "%s(select t%" PRIu64 " (bvadd ((_ zero_extend %u) ", n > 1 ? " " : "",
                x->imm, GB_SMT2_INDEX - aw);
        print_ref(p, x->args[0]);
        fprintf(p->f, ") (_ bv%u %u)))", i, GB_SMT2_INDEX);
    }
    if (n > 1)
        fputc(')', p->f);
}

/* ---- Floating point: bits viewed as FP, NaN results as the one NaN ---- */

static const char *fp_sort_idx(unsigned w)
{
    return w == 32 ? "8 24" : "11 53";
}

/* (let ((fx VIEW0) (fy VIEW1)) ...: the arguments' bits as FP terms. */
static void print_fp_let(printer_t *p, const gb_node_t *x, unsigned aw)
{
    fputs("(let ((fx ", p->f);
    fprintf(p->f, "((_ to_fp %s) ", fp_sort_idx(aw));
    print_ref(p, x->args[0]);
    fputs("))", p->f);
    if (x->nargs > 1) {
        fprintf(p->f, " (fy ((_ to_fp %s) ", fp_sort_idx(aw));
        print_ref(p, x->args[1]);
        fputs("))", p->f);
    }
    fputs(") ", p->f);
}

static void print_fcmp(printer_t *p, unsigned op)
{
    static const char *const ord[] = {"fp.eq", "fp.gt", "fp.geq", "fp.lt", "fp.leq"};
    const char *uno = "(or (fp.isNaN fx) (fp.isNaN fy))";
    unsigned o = op >= GBT_OP_FUEQ ? op - (GBT_OP_FUEQ - GBT_OP_FOEQ) : op;
    fputs("(ite ", p->f);
    if (op == GBT_OP_FORD || op == GBT_OP_FUNO)
        fprintf(p->f, op == GBT_OP_FORD ? "(not %s)" : "%s", uno);
    else {
        if (op >= GBT_OP_FUEQ)
            fprintf(p->f, "(or %s ", uno);
        if (o == GBT_OP_FONE)
            fprintf(p->f, "(not (or (fp.eq fx fy) %s))", uno);
        else
            fprintf(p->f, "(%s fx fy)", ord[o - GBT_OP_FOEQ]);
        if (op >= GBT_OP_FUEQ)
            fputc(')', p->f);
    }
    fputs(" #b1 #b0)", p->f);
}

/* The FP term of an FP-valued node, with fx, fy bound. */
static void print_fp_value(printer_t *p, const gb_node_t *x)
{
    static const char *const ar[] = {"fp.add", "fp.sub", "fp.mul", "fp.div"};
    const char *to = fp_sort_idx(x->width);
    if (x->op >= GBT_OP_FADD && x->op <= GBT_OP_FDIV)
        fprintf(p->f, "(%s RNE fx fy)", ar[x->op - GBT_OP_FADD]);
    else if (x->op == GBT_OP_SITOFP || x->op == GBT_OP_UITOFP) {
        fprintf(p->f, "((_ %s %s) RNE ", x->op == GBT_OP_SITOFP ? "to_fp" : "to_fp_unsigned", to);
        print_ref(p, x->args[0]);
        fputc(')', p->f);
    } else
        fprintf(p->f, "((_ to_fp %s) RNE fx)", to);
}

static void print_fp(printer_t *p, const gb_node_t *x, unsigned aw)
{
    FILE *f = p->f;
    int ints = x->op == GBT_OP_SITOFP || x->op == GBT_OP_UITOFP;
    if (!ints)
        print_fp_let(p, x, aw);
    if (gbt_op_is_fcmp(x->op))
        print_fcmp(p, x->op);
    else if (x->op == GBT_OP_FPTOSI || x->op == GBT_OP_FPTOUI) {
        int sg = x->op == GBT_OP_FPTOSI;
        double top = 2.0 * (double)(1ull << (x->width - 1));
        fprintf(f, "(let ((t (fp.roundToIntegral RTZ fx))) (ite (and (fp.geq t ((_ to_fp %s) "
                "RNE %s%.1f%s)) (fp.lt t ((_ to_fp %s) RNE %.1f))) ((_ %s %u) RTZ fx) (_ bv0 %u)))",
                fp_sort_idx(aw), sg ? "(- " : "", sg ? top / 2 : 0.0, sg ? ")" : "", fp_sort_idx(aw),
                sg ? top / 2 : top, sg ? "fp.to_sbv" : "fp.to_ubv", x->width, x->width);
    } else {
        fputs("(let ((r ", f);
        print_fp_value(p, x);
        fprintf(f, ")) (ite (fp.isNaN r) #x%0*llx (fp.to_ieee_bv r)))", (int)x->width / 4,
                (unsigned long long)(x->width == 32 ? GBT_FP_NAN32 : GBT_FP_NAN64));
    }
    if (!ints)
        fputc(')', f);
}

static void print_term(printer_t *p, uint32_t node)
{
    const gb_node_t *x = &p->d->nodes[node];
    FILE *f = p->f;
    unsigned aw = x->nargs ? p->d->nodes[x->args[0]].width : 0;
    if (x->op == GBT_OP_READ) {
        print_read(p, x, aw);
        return;
    }
    if (gbt_op_is_fp(x->op)) {
        print_fp(p, x, aw);
        return;
    }
    switch (x->op) {
    case GBT_OP_ZEXT: fprintf(f, "((_ zero_extend %u) ", x->width - aw); break;
    case GBT_OP_SEXT: fprintf(f, "((_ sign_extend %u) ", x->width - aw); break;
    case GBT_OP_EXTRACT:
        fprintf(f, "((_ extract %u %u) ", (unsigned)x->imm + x->width - 1, (unsigned)x->imm);
        break;
    case GBT_OP_ITE: fputs("(ite (= ", f); break;
    default:
        if (gbt_op_is_cmp(x->op))
            fputs("(ite (", f);
        else
            fputc('(', f);
        fprintf(f, "%s ", op_name(x->op));
    }
    for (unsigned i = 0; i < x->nargs; i++) {
        if (i > 0)
            fputc(' ', f);
        print_ref(p, x->args[i]);
        if (x->op == GBT_OP_ITE && i == 0)
            fputs(" #b1)", f);
    }
    if (gbt_op_is_cmp(x->op))
        fputs(x->op == GBT_OP_NE ? ") #b0 #b1)" : ") #b1 #b0)", f);
    else
        fputc(')', f);
}

/* Names every non-leaf term used twice or more, and terms whose inline
 * depth would exceed GB_SMT2_INLINE_DEPTH. */
static int choose_names(printer_t *p, const gb_trace_t *t)
{
    uint32_t *uses = gb_calloc(p->n, sizeof *uses);
    uint8_t *depth = gb_calloc(p->n, 1);
    if (!uses || !depth) {
        gb_free(uses);
        gb_free(depth);
        return -1;
    }
    for (size_t i = 0; i < p->n; i++) {
        const gb_node_t *x = &p->d->nodes[p->list[i]];
        /* a READ of n bytes prints its offset n times (print_read): an
         * unnamed offset that is itself a READ grew 8-fold per level (a
         * 365-byte harness input printed 16 MB; tests/fuzz's smt2) */
        uint32_t times = x->op == GBT_OP_READ && x->width > 8 ? x->width / 8u : 1u;
        for (unsigned k = 0; k < x->nargs; k++)
            uses[gb_dag_pos(p->list, i, x->args[k])] += times;
    }
    for (size_t j = 0; j < t->npcs; j++)
        uses[gb_dag_pos(p->list, p->n, t->pcs[j].node)]++;
    for (size_t i = 0; i < p->n; i++) {
        const gb_node_t *x = &p->d->nodes[p->list[i]];
        if (is_leaf(x))
            continue;
        unsigned dep = 1;
        for (unsigned k = 0; k < x->nargs; k++) {
            size_t a = gb_dag_pos(p->list, i, x->args[k]);
            if (!p->named[a] && depth[a] + 1u > dep)
                dep = depth[a] + 1u;
        }
        p->named[i] = uses[i] >= 2 || dep > GB_SMT2_INLINE_DEPTH;
        depth[i] = p->named[i] ? 0 : (uint8_t)dep;
    }
    gb_free(uses);
    gb_free(depth);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Each table a READ uses, as a constant array of bytes. */
static void print_tables(printer_t *p)
{
    for (size_t k = 0; k < p->d->ntables; k++) {
        const gb_table_t *tb = &p->d->tables[k];
        int used = 0;
        for (size_t i = 0; i < p->n && !used; i++)
            used = p->d->nodes[p->list[i]].op == GBT_OP_READ &&
                   p->d->nodes[p->list[i]].imm == tb->id;
        if (!used)
            continue;
        size_t nz = 0;
        for (uint32_t i = 0; i < tb->len; i++)
            nz += tb->bytes[i] != 0;
        fprintf(p->f,
                "; table %u: %u bytes\n(define-fun t%u () (Array (_ BitVec %u) (_ BitVec 8)) ",
                tb->id, tb->len, tb->id, GB_SMT2_INDEX);
        for (size_t i = 0; i < nz; i++)
            fputs("(store ", p->f);
        fprintf(p->f, "((as const (Array (_ BitVec %u) (_ BitVec 8))) #x00)", GB_SMT2_INDEX);
        for (uint32_t i = 0; i < tb->len; i++)
            if (tb->bytes[i])
                fprintf(p->f, " (_ bv%u %u) #x%02x)", i, GB_SMT2_INDEX, tb->bytes[i]);
        fputs(")\n", p->f);
    }
}

static int uses_tables(const printer_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->d->nodes[p->list[i]].op == GBT_OP_READ)
            return 1;
    return 0;
}

static int uses_fp(const printer_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (gbt_op_is_fp(p->d->nodes[p->list[i]].op))
            return 1;
    return 0;
}

static int print_decls(printer_t *p)
{
    print_tables(p);
    size_t n = 0;
    uint64_t *off = gb_malloc((p->n ? p->n : 1) * sizeof *off);
    if (!off)
        return -1;
    for (size_t i = 0; i < p->n; i++)
        if (p->d->nodes[p->list[i]].op == GBT_OP_INPUT)
            off[n++] = p->d->nodes[p->list[i]].imm;
    qsort(off, n, sizeof *off, cmp_u64);
    for (size_t i = 0; i < n; i++) {
        fprintf(p->f, "(declare-const ");
        print_var(p->f, off[i]);
        fprintf(p->f, " (_ BitVec 8))\n");
    }
    gb_free(off);
    for (size_t i = 0; i < p->n; i++) {
        if (!p->named[i])
            continue;
        fprintf(p->f, "(define-fun n%u () (_ BitVec %u) ", p->list[i],
                p->d->nodes[p->list[i]].width);
        print_term(p, p->list[i]);
        fputs(")\n", p->f);
    }
    return 0;
}

static void print_asserts(printer_t *p, const gb_trace_t *t)
{
    static const char *const kinds[] = {"branch", "pin", "switch", "check"};
    for (size_t j = 0; j < t->npcs; j++) {
        const gb_pc_t *pc = &t->pcs[j];
        fprintf(p->f, ";; pc %zu %s site 0x%08x taken %u%s\n", j, kinds[pc->kind], pc->site,
                pc->taken, pc->kind == GBT_PC_PIN ? " (pin: never flipped)" : "");
        fputs("(assert (= ", p->f);
        print_ref(p, pc->node);
        fprintf(p->f, " #b%u))\n", pc->taken);
    }
}

/* One comment line on the run: what a reader of a crash trace asks first. */
static void print_header(const gb_trace_t *t, FILE *out)
{
    const gb_trace_info_t *in = &t->info;
    fprintf(out, "; glassbox trace: input length %" PRIu64 ", input hash 0x%016" PRIx64
            ", %zu path-constraint entries; ", in->input_len, in->input_hash, t->npcs);
    if (!in->complete)
        fputs("incomplete (no END record: the run died)", out);
    else if (in->end_kind == GBT_END_SIGNAL)
        fprintf(out, "ended by signal %d", in->end_code);
    else if (in->end_kind == GBT_END_LIMIT)
        fputs("ended: the tracer hit a cap", out);
    else
        fprintf(out, "ended by exit (code %d)", in->end_code);
    if (in->truncated)
        fputs(", cut-off tail dropped", out);
    if (in->dropped)
        fprintf(out, ", %" PRIu64 " constraints dropped by the tracer", in->dropped);
    fputc('\n', out);
}

int gb_trace_print_smt2(const gb_trace_t *t, FILE *out, gb_err_t *e)
{
    uint32_t *roots = gb_malloc((t->npcs ? t->npcs : 1) * sizeof *roots);
    if (!roots)
        return gb_err_set(e, "out of memory printing SMT-LIB2");
    for (size_t j = 0; j < t->npcs; j++)
        roots[j] = t->pcs[j].node;
    uint32_t *list;
    printer_t p = {out, &t->dag, NULL, 0, NULL};
    p.n = gb_dag_reach(&t->dag, roots, t->npcs, &list);
    p.list = list;
    gb_free(roots);
    if (p.n == (size_t)-1)
        return gb_err_set(e, "out of memory printing SMT-LIB2");
    p.named = gb_calloc(p.n ? p.n : 1, 1);
    int r = -1;
    if (!p.named || choose_names(&p, t) != 0) {
        gb_err_set(e, "out of memory printing SMT-LIB2");
        goto done;
    }
    print_header(t, out);
    fprintf(out, "(set-logic QF_%sBV%s)\n", uses_tables(&p) ? "A" : "", uses_fp(&p) ? "FP" : "");
    if (print_decls(&p) != 0) {
        gb_err_set(e, "out of memory printing SMT-LIB2");
        goto done;
    }
    print_asserts(&p, t);
    fputs("(check-sat)\n", out);
    r = (fflush(out) != 0 || ferror(out)) ? gb_err_sys(e, "cannot write SMT-LIB2") : 0;
done:
    gb_free(list);
    gb_free(p.named);
    return r;
}
