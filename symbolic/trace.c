/* SPDX-License-Identifier: Apache-2.0 */
/* The .gbt reader: validates a trace file strictly (docs/trace-format.md,
 * "What a reader must reject") and builds its expression DAG. */
#include <stdatomic.h>
#include <string.h>
#include <xxhash.h>

#include "symbolic_int.h"

/* Largest trace file gb_trace_load reads (the tracer caps traces far below). */
#define GB_TRACE_FILE_MAX ((size_t)1 << 32)

typedef struct bkey {
    uint64_t key; /* block id + 1; 0 = empty slot */
} bkey_t;

static uint64_t block_hash(uint64_t key)
{
    return (uint32_t)((uint32_t)(key - 1) * 2654435761u);
}

GB_HMAP_DEFINE_KEYED(blockset, bkey_t, uint64_t, block_hash, gb_calloc, gb_free)

typedef struct loader {
    gb_trace_t *t;
    uint32_t *idmap; /* trace node id -> DAG index; idmap[0] unused */
    size_t nids, idcap;
    blockset_t bset; /* block ids seen */
    gb_err_t *e;
    unsigned version; /* from the header: 1, 2 (tables) or 3 (floating point) */
} loader_t;

static _Atomic uint64_t next_serial = 1;

static int check_header(const uint8_t *p, size_t len, gb_err_t *e)
{
    if (len < GBT_HEADER_SIZE)
        return gb_err_set(e, "short header: %zu bytes, need %u at offset 0", len,
                          GBT_HEADER_SIZE);
    if (memcmp(p, GBT_MAGIC, 8) != 0)
        return gb_err_set(e, "bad magic at offset 0: not a .gbt trace");
    if (gbt_get16(p + 8) < GBT_VERSION || gbt_get16(p + 8) > GBT_VERSION_FP)
        return gb_err_set(e, "unsupported version %u at offset 8 (expected %u to %u)",
                          gbt_get16(p + 8), GBT_VERSION, GBT_VERSION_FP);
    if (gbt_get16(p + 10) != GBT_HEADER_SIZE)
        return gb_err_set(e, "bad header size %u at offset 10 (expected %u)",
                          gbt_get16(p + 10), GBT_HEADER_SIZE);
    if (gbt_get32(p + 12) != 0)
        return gb_err_set(e, "unknown header flags 0x%x at offset 12", gbt_get32(p + 12));
    if (XXH3_64bits_withSeed(p, 32, 0) != gbt_get64(p + 32))
        return gb_err_set(e, "header checksum mismatch at offset 32");
    return 0;
}

/* ---- Records --------------------------------------------------------- */

/* Floating-point operators (version 3): floats are 32 or 64 bits wide. */
static int check_fp_widths(unsigned op, unsigned w, unsigned w0, unsigned w1)
{
    if (gbt_op_is_fcmp(op))
        return gbt_fp_width(w0) && w1 == w0 && w == 1;
    switch (op) {
    case GBT_OP_SITOFP: case GBT_OP_UITOFP: return gbt_fp_width(w);
    case GBT_OP_FPTOSI: case GBT_OP_FPTOUI: return gbt_fp_width(w0);
    case GBT_OP_FPEXT: return w0 == 32 && w == 64;
    case GBT_OP_FPTRUNC: return w0 == 64 && w == 32;
    default: return gbt_fp_width(w) && w0 == w && w1 == w; /* FADD..FDIV */
    }
}

static int check_widths(const gb_dag_t *d, unsigned op, unsigned w, const uint32_t *a,
                        uint64_t imm, size_t off, gb_err_t *e)
{
    unsigned w0 = 0, w1 = 0, w2 = 0;
    if (gbt_op_arity(op) >= 1)
        w0 = d->nodes[a[0]].width;
    if (gbt_op_arity(op) >= 2)
        w1 = d->nodes[a[1]].width;
    if (gbt_op_arity(op) >= 3)
        w2 = d->nodes[a[2]].width;
    int ok = 1;
    if (op == GBT_OP_CONST)
        ok = (imm & ~gb_mask(w)) == 0;
    else if (op == GBT_OP_INPUT)
        ok = w == 8 && imm <= UINT32_MAX;
    else if (op >= GBT_OP_ADD && op <= GBT_OP_XOR)
        ok = w0 == w && w1 == w;
    else if (op == GBT_OP_NOT || op == GBT_OP_NEG)
        ok = w0 == w;
    else if (op == GBT_OP_ZEXT || op == GBT_OP_SEXT)
        ok = w > w0;
    else if (op == GBT_OP_EXTRACT)
        ok = imm < 64 && imm + w <= w0;
    else if (op == GBT_OP_CONCAT)
        ok = w0 + w1 == w;
    else if (gbt_op_is_cmp(op))
        ok = w0 == w1 && w == 1;
    else if (op == GBT_OP_ITE)
        ok = w0 == 1 && w1 == w && w2 == w;
    else if (op == GBT_OP_READ)
        ok = w % 8 == 0 && imm <= UINT32_MAX && gb_dag_table(d, (uint32_t)imm) != NULL;
    else if (gbt_op_is_fp(op))
        ok = check_fp_widths(op, w, w0, w1);
    if (!ok)
        return gb_err_set(e, "NODE op %u width %u inconsistent with its arguments or imm "
                          "0x%llx at offset %zu", op, w, (unsigned long long)imm, off);
    if (imm != 0 && op != GBT_OP_CONST && op != GBT_OP_INPUT && op != GBT_OP_EXTRACT &&
        op != GBT_OP_READ)
        return gb_err_set(e, "NODE op %u has nonzero imm at offset %zu", op, off);
    return 0;
}

static int push_id(loader_t *L, uint32_t idx)
{
    if (L->nids == L->idcap) {
        size_t nc = L->idcap * 2;
        uint32_t *nm = gb_realloc(L->idmap, nc * sizeof *nm);
        if (!nm)
            return gb_err_set(L->e, "out of memory loading trace");
        L->idmap = nm;
        L->idcap = nc;
    }
    L->idmap[L->nids++] = idx;
    return 0;
}

static int rec_node(loader_t *L, const uint8_t *b, size_t blen, size_t off)
{
    if (blen < 4)
        return gb_err_set(L->e, "NODE body length %zu too short at offset %zu", blen, off);
    unsigned op = b[0], w = b[1], nargs = b[2];
    int arity = gbt_op_arity(op);
    if (op == GBT_OP_READ && L->version < GBT_VERSION_TABLES)
        arity = -1; /* READ exists from version 2 on */
    if (gbt_op_is_fp(op) && L->version < GBT_VERSION_FP)
        arity = -1; /* floating point from version 3 on */
    if (arity < 0)
        return gb_err_set(L->e, "NODE with unknown op %u at offset %zu", op, off);
    if ((int)nargs != arity)
        return gb_err_set(L->e, "NODE op %u with %u args (needs %d) at offset %zu", op, nargs,
                          arity, off);
    if (blen != GBT_NODE_BODY(nargs))
        return gb_err_set(L->e, "NODE body length %zu (expected %u) at offset %zu", blen,
                          GBT_NODE_BODY(nargs), off);
    if (w < 1 || w > GBT_MAX_WIDTH)
        return gb_err_set(L->e, "NODE width %u out of range at offset %zu", w, off);
    uint32_t args[3];
    for (unsigned i = 0; i < nargs; i++) {
        uint32_t id = gbt_get32(b + 4 + 4 * i);
        if (id == 0 || id >= L->nids)
            return gb_err_set(L->e, "NODE argument %u (id %u) is not an earlier node at "
                              "offset %zu", i, id, off);
        args[i] = L->idmap[id];
    }
    uint64_t imm = gbt_get64(b + 4 + 4 * nargs);
    if (check_widths(&L->t->dag, op, w, args, imm, off, L->e) != 0)
        return -1;
    if (op == GBT_OP_INPUT && !gbt_is_len_offset(imm) && imm + 1 > L->t->info.read_end)
        L->t->info.read_end = imm + 1;
    uint32_t idx = gb_dag_mk(&L->t->dag, op, w, nargs, args, imm);
    if (idx == GB_NONE)
        return gb_err_set(L->e, "out of memory loading trace");
    return push_id(L, idx);
}

static int rec_pc(loader_t *L, const uint8_t *b, size_t blen, size_t off)
{
    gb_trace_t *t = L->t;
    if (blen != GBT_PC_BODY)
        return gb_err_set(L->e, "PC body length %zu (expected %u) at offset %zu", blen,
                          GBT_PC_BODY, off);
    if (b[0] > GBT_PC_CHECK)
        return gb_err_set(L->e, "PC with unknown kind %u at offset %zu", b[0], off);
    if (b[1] > 1)
        return gb_err_set(L->e, "PC taken %u is not 0 or 1 at offset %zu", b[1], off);
    uint32_t id = gbt_get32(b + 8);
    if (id == 0 || id >= L->nids)
        return gb_err_set(L->e, "PC node %u is not a node at offset %zu", id, off);
    uint32_t node = L->idmap[id];
    if (t->dag.nodes[node].width != 1)
        return gb_err_set(L->e, "PC node %u has width %u, not 1, at offset %zu", id,
                          t->dag.nodes[node].width, off);
    if (gb_grow(&t->pcs, &t->pcap, t->npcs + 1, sizeof *t->pcs, 64) != 0)
        return gb_err_set(L->e, "out of memory loading trace");
    gb_pc_t *pc = &t->pcs[t->npcs++];
    pc->kind = b[0];
    pc->taken = b[1];
    pc->site = gbt_get32(b + 4);
    pc->node = node;
    return 0;
}

/* Block ids should arrive once each; duplicates are tolerated, not counted. */
static int rec_block(loader_t *L, const uint8_t *b, size_t blen, size_t off)
{
    gb_trace_t *t = L->t;
    if (blen != GBT_BLOCK_BODY)
        return gb_err_set(L->e, "BLOCK body length %zu (expected %u) at offset %zu", blen,
                          GBT_BLOCK_BODY, off);
    uint32_t id = gbt_get32(b);
    /* First, so that no id is in the set but not the array. */
    if (gb_grow(&t->blocks, &t->bcap, t->nblocks + 1, sizeof *t->blocks, 64) != 0)
        return gb_err_set(L->e, "out of memory loading trace");
    int fresh;
    bkey_t *s = blockset_put(&L->bset, (uint64_t)id + 1, &fresh);
    if (!s)
        return gb_err_set(L->e, "out of memory loading trace");
    if (fresh) {
        s->key = (uint64_t)id + 1;
        t->blocks[t->nblocks++] = id;
    }
    return 0;
}

static int rec_end(loader_t *L, const uint8_t *b, size_t blen, size_t off)
{
    gb_trace_info_t *in = &L->t->info;
    if (blen != GBT_END_BODY)
        return gb_err_set(L->e, "END body length %zu (expected %u) at offset %zu", blen,
                          GBT_END_BODY, off);
    if (in->complete)
        return gb_err_set(L->e, "second END record at offset %zu", off);
    if (b[0] > GBT_END_LIMIT)
        return gb_err_set(L->e, "END with unknown kind %u at offset %zu", b[0], off);
    uint64_t nodes = gbt_get64(b + 8), pcs = gbt_get64(b + 16);
    if (nodes != L->nids - 1 || pcs != L->t->npcs)
        return gb_err_set(L->e, "END counts %llu nodes and %llu pcs but the trace has %zu "
                          "and %zu, at offset %zu", (unsigned long long)nodes,
                          (unsigned long long)pcs, L->nids - 1, L->t->npcs, off);
    in->complete = 1;
    in->end_kind = b[0];
    in->end_code = (int32_t)gbt_get32(b + 4);
    in->dropped = gbt_get64(b + 24);
    return 0;
}

/* TABLE (version 2): a table's bytes, before any READ node names it. */
static int rec_table(loader_t *L, const uint8_t *b, size_t blen, size_t off)
{
    if (blen < GBT_TABLE_BODY(1) || blen > GBT_TABLE_BODY(GBT_TABLE_MAX))
        return gb_err_set(L->e, "TABLE body length %zu out of range at offset %zu", blen, off);
    uint32_t id = gbt_get32(b);
    if (id == 0 || gb_dag_table(&L->t->dag, id))
        return gb_err_set(L->e, "TABLE id %u is zero or repeated at offset %zu", id, off);
    if (gb_dag_add_table(&L->t->dag, id, b + 4, blen - 4) != 0)
        return gb_err_set(L->e, "out of memory loading trace");
    return 0;
}

/* Parses the records of one verified block; `base` is its file offset. */
static int parse_block(loader_t *L, const uint8_t *p, size_t len, size_t base)
{
    size_t i = 0;
    while (i < len) {
        size_t off = base + i;
        if (len - i < 3)
            return gb_err_set(L->e, "record header runs past its block at offset %zu", off);
        unsigned type = p[i];
        size_t blen = gbt_get16(p + i + 1);
        if (blen > len - i - 3)
            return gb_err_set(L->e, "record of %zu bytes runs past its block at offset %zu",
                              blen, off);
        const uint8_t *b = p + i + 3;
        int r = 0;
        if (type == GBT_REC_NODE)
            r = rec_node(L, b, blen, off);
        else if (type == GBT_REC_PC)
            r = rec_pc(L, b, blen, off);
        else if (type == GBT_REC_BLOCK)
            r = rec_block(L, b, blen, off);
        else if (type == GBT_REC_END)
            r = rec_end(L, b, blen, off);
        else if (type == GBT_REC_TABLE && L->version >= GBT_VERSION_TABLES)
            r = rec_table(L, b, blen, off);
        if (r != 0)
            return -1;
        i += 3 + blen;
    }
    return 0;
}

/* ---- Blocks ---------------------------------------------------------- */

/* Walks the blocks. A cut-off tail (partial block header or payload) is an
 * error unless GB_TRACE_PREFIX_OK, which keeps the whole blocks before it. */
static int parse_blocks(loader_t *L, const uint8_t *data, size_t len, unsigned flags)
{
    size_t off = GBT_HEADER_SIZE;
    uint64_t index = 0;
    while (off < len) {
        size_t left = len - off;
        const uint8_t *h = data + off;
        if (left >= 4 && gbt_get32(h) != GBT_BLOCK_MAGIC)
            return gb_err_set(L->e, "bad block magic 0x%08x at offset %zu", gbt_get32(h), off);
        uint32_t plen = left >= 8 ? gbt_get32(h + 4) : 1;
        if (plen == 0 || plen > GBT_BLOCK_MAX)
            return gb_err_set(L->e, "bad block length %u at offset %zu", plen, off);
        if (left < GBT_BLOCK_HEADER_SIZE || plen > left - GBT_BLOCK_HEADER_SIZE) {
            if (flags & GB_TRACE_PREFIX_OK) {
                L->t->info.truncated = 1;
                return 0;
            }
            if (left < GBT_BLOCK_HEADER_SIZE)
                return gb_err_set(L->e, "truncated: %zu trailing bytes are not a whole block "
                                  "header at offset %zu", left, off);
            return gb_err_set(L->e, "truncated: block of %u bytes runs past the end of the "
                              "file at offset %zu", plen, off);
        }
        const uint8_t *payload = h + GBT_BLOCK_HEADER_SIZE;
        if (XXH3_64bits_withSeed(payload, plen, index) != gbt_get64(h + 8))
            return gb_err_set(L->e, "block %llu checksum mismatch at offset %zu",
                              (unsigned long long)index, off);
        if (parse_block(L, payload, plen, off + GBT_BLOCK_HEADER_SIZE) != 0)
            return -1;
        off += GBT_BLOCK_HEADER_SIZE + plen;
        index++;
    }
    return 0;
}

static gb_trace_t *trace_new(void)
{
    gb_trace_t *t = gb_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (gb_dag_init(&t->dag) != 0) {
        gb_free(t);
        return NULL;
    }
    t->serial = atomic_fetch_add(&next_serial, 1);
    t->info.end_kind = -1;
    return t;
}

int gb_trace_load_mem(const uint8_t *data, size_t len, unsigned flags, gb_trace_t **out,
                      gb_err_t *e)
{
    *out = NULL;
    if (!data && len > 0)
        return gb_err_set(e, "no trace data");
    if (check_header(data, len, e) != 0)
        return -1;
    loader_t L = {trace_new(), gb_malloc(256 * sizeof(uint32_t)), 1, 256, {0}, e, 0};
    if (!L.t || !L.idmap) {
        gb_trace_free(L.t);
        gb_free(L.idmap);
        return gb_err_set(e, "out of memory loading trace");
    }
    L.idmap[0] = GB_NONE;
    L.version = gbt_get16(data + 8);
    L.t->info.input_len = gbt_get64(data + 16);
    L.t->info.input_hash = gbt_get64(data + 24);
    int r = parse_blocks(&L, data, len, flags);
    gb_free(L.idmap);
    blockset_free(&L.bset);
    if (r != 0) {
        gb_trace_free(L.t);
        return -1;
    }
    gb_dag_seal(&L.t->dag);
    *out = L.t;
    return 0;
}

int gb_trace_load(const char *path, unsigned flags, gb_trace_t **out, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    if (gb_read_file(path, GB_TRACE_FILE_MAX, &data, &len, e) != 0)
        return -1;
    int r = gb_trace_load_mem(data, len, flags, out, e);
    if (r != 0 && e) {
        /* keep the reader's message, and say which file it was about */
        gb_err_t inner = *e;
        gb_err_set(e, "%s: %s", path, inner.msg);
    }
    gb_free(data);
    return r;
}

void gb_trace_free(gb_trace_t *t)
{
    if (!t)
        return;
    gb_dag_fini(&t->dag);
    gb_free(t->pcs);
    gb_free(t->blocks);
    gb_free(t);
}

void gb_trace_get_info(const gb_trace_t *t, gb_trace_info_t *info)
{
    *info = t->info;
    info->nodes = t->dag.n;
    info->pcs = t->npcs;
    info->blocks = t->nblocks;
}

void gb_trace_get_pc(const gb_trace_t *t, size_t i, gb_pc_info_t *pc)
{
    memset(pc, 0, sizeof *pc);
    if (i >= t->npcs)
        return;
    pc->kind = t->pcs[i].kind;
    pc->taken = t->pcs[i].taken;
    pc->site = t->pcs[i].site;
}

const uint32_t *gb_trace_blocks(const gb_trace_t *t, size_t *n)
{
    *n = t->nblocks;
    return t->blocks;
}
