/* SPDX-License-Identifier: Apache-2.0 */
/* Random valid traces for property tests: every op, width rules respected,
 * several blocks, pins and switches, unknown records, END. Deterministic in
 * the seed, so a second call with the real `taken` bits rebuilds it. */
#ifndef GB_TESTS_SYMBOLIC_GEN_H
#define GB_TESTS_SYMBOLIC_GEN_H

#include "tb.h"

typedef struct gen {
    uint64_t rng;
    tb_t *b;
    uint32_t *id;
    uint8_t *w;
    size_t n;
} gen_t;

static inline uint64_t gen_rnd(gen_t *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

static inline void gen_add(gen_t *g, uint32_t id, unsigned w)
{
    g->id[g->n] = id;
    g->w[g->n++] = (uint8_t)w;
}

static inline uint64_t gen_value(gen_t *g, unsigned w)
{
    static const uint64_t special[] = {0, 1, 2, 0x7f, 0x80, 0xff, ~0ull, 0x8000000000000000ull};
    uint64_t v = gen_rnd(g) % 3 == 0 ? special[gen_rnd(g) % 8] : gen_rnd(g) >> (gen_rnd(g) % 64);
    return w >= 64 ? v : v & ((1ull << w) - 1);
}

/* A node of width w: an existing one most of the time, else a constant. */
static inline uint32_t gen_pick(gen_t *g, unsigned w)
{
    size_t start = g->n ? gen_rnd(g) % g->n : 0;
    for (size_t k = 0; k < g->n && gen_rnd(g) % 8 != 0; k++) {
        size_t i = (start + k) % g->n;
        if (g->w[i] == w)
            return g->id[i];
    }
    uint32_t c = tb_const(g->b, w, gen_value(g, w));
    gen_add(g, c, w);
    return c;
}

static inline uint32_t gen_input(gen_t *g)
{
    uint32_t x = tb_in(g->b, gen_rnd(g) % 16 == 0 ? 100 : gen_rnd(g) % 8);
    gen_add(g, x, 8);
    return x;
}

static inline void gen_node(gen_t *g)
{
    size_t i = g->n ? gen_rnd(g) % g->n : 0;
    if (g->n == 0 || gen_rnd(g) % 6 == 0) {
        gen_input(g);
        return;
    }
    uint32_t x = g->id[i];
    unsigned w = g->w[i], op = 3 + (unsigned)(gen_rnd(g) % 30), rw = w;
    uint32_t y = 0, z = 0;
    if (op <= GBT_OP_XOR || gbt_op_is_cmp(op)) {
        y = gen_pick(g, w);
        rw = gbt_op_is_cmp(op) ? 1 : w;
    } else if ((op == GBT_OP_ZEXT || op == GBT_OP_SEXT) && w < 64) {
        rw = w + 1 + (unsigned)(gen_rnd(g) % (64 - w));
    } else if (op == GBT_OP_EXTRACT) {
        uint64_t lo = gen_rnd(g) % w;
        rw = 1 + (unsigned)(gen_rnd(g) % (w - lo));
        uint32_t e = tb_un(g->b, op, rw, x, lo);
        gen_add(g, e, rw);
        return;
    } else if (op == GBT_OP_CONCAT && w < 64) {
        unsigned lw = 1 + (unsigned)(gen_rnd(g) % (64 - w));
        y = gen_pick(g, lw);
        rw = w + lw;
    } else if (op == GBT_OP_ITE) {
        uint32_t c = gen_pick(g, 1);
        gen_add(g, tb_node(g->b, op, w, 3, c, x, gen_pick(g, w), 0), w);
        return;
    } else if (op != GBT_OP_NOT && op != GBT_OP_NEG) {
        op = GBT_OP_NOT;
    }
    if (op == GBT_OP_CONCAT || op <= GBT_OP_XOR || gbt_op_is_cmp(op))
        z = tb_bin(g->b, op, rw, x, y);
    else
        z = tb_un(g->b, op, rw, x, 0);
    gen_add(g, z, rw);
}

/* A width-1 condition over recent nodes, usually a comparison. */
static inline uint32_t gen_cond(gen_t *g)
{
    size_t i = g->n - 1 - (size_t)(gen_rnd(g) % (g->n < 8 ? g->n : 8));
    if (g->w[i] == 1 && gen_rnd(g) % 2)
        return g->id[i];
    unsigned op = GBT_OP_EQ + (unsigned)(gen_rnd(g) % 10);
    uint32_t c = tb_bin(g->b, op, 1, g->id[i], gen_pick(g, g->w[i]));
    gen_add(g, c, 1);
    return c;
}

/* nnodes random nodes with npcs entries spread among them; taken[j] gives
 * entry j's direction (NULL: random). */
static inline tb_t *gen_trace(uint64_t seed, int nnodes, int npcs, int unused,
                              const uint8_t *taken)
{
    (void)unused;
    gen_t g = {seed * 0x9e3779b97f4a7c15ull | 1, tb_new(8, seed), NULL, NULL, 0};
    g.id = malloc((size_t)(nnodes + 8 * npcs + 64) * 4 * sizeof *g.id);
    g.w = malloc((size_t)(nnodes + 8 * npcs + 64) * 4);
    gen_input(&g);
    int pcs = 0;
    for (int k = 0; k < nnodes || pcs < npcs; k++) {
        if (k < nnodes)
            gen_node(&g);
        if (pcs < npcs && (k >= nnodes || gen_rnd(&g) % (unsigned)(nnodes / npcs + 1) == 0)) {
            unsigned kind = gen_rnd(&g) % 6 == 0 ? GBT_PC_PIN : gen_rnd(&g) % 5 == 0 ? 2 : 0;
            uint64_t r = gen_rnd(&g); /* drawn either way: same stream with or without taken */
            unsigned tk = taken ? taken[pcs] : (unsigned)(r & 1);
            tb_pc(g.b, kind, tk, 0x5000u + (unsigned)pcs, gen_cond(&g));
            pcs++;
            tb_block(g.b, (uint32_t)(gen_rnd(&g) % 50));
        }
        if (gen_rnd(&g) % 40 == 0) {
            static const uint8_t unknown[6] = {99, 3, 0, 1, 2, 3};
            tb_raw(g.b, unknown, sizeof unknown);
        }
        if (gen_rnd(&g) % 10 == 0)
            tb_flush(g.b);
    }
    tb_end(g.b, GBT_END_SIGNAL, 11, 2);
    free(g.id);
    free(g.w);
    return g.b;
}

/* gen_trace's trace whose every entry is taken the way the 8-byte input
 * `in` goes: the random trace is evaluated on `in` and generated again with
 * those directions, so `in` satisfies the whole path constraint. */
static inline tb_t *gen_trace_for(uint64_t seed, int nnodes, int npcs, const uint8_t in[8])
{
    tb_t *b = gen_trace(seed, nnodes, npcs, 0, NULL);
    gb_trace_t *t = tb_load(b, 0);
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    uint8_t taken[256];
    for (size_t j = 0; j < info.pcs && j < sizeof taken; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        taken[j] = (uint8_t)(gb_trace_eval_pc(t, j, in, 8) ? pc.taken : !pc.taken);
    }
    gb_trace_free(t);
    tb_free(b);
    return gen_trace(seed, nnodes, npcs, 0, taken);
}

#endif
