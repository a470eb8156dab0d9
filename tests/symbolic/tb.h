/* SPDX-License-Identifier: Apache-2.0 */
/* Test helpers for symbolic/: a trace builder on the gbt.h encoders (so the
 * tests write traces exactly as the tracer runtime would); checks come from
 * tests/check.h. */
#ifndef GB_TESTS_SYMBOLIC_TB_H
#define GB_TESTS_SYMBOLIC_TB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gb_base.h"
#include "gbt.h"
#include "symbolic.h"

/* A trace being built: the file so far, plus the open block's payload. */
typedef struct tb {
    uint8_t *file;
    size_t len, cap;
    uint8_t blk[GBT_BLOCK_MAX];
    size_t blen;
    uint64_t index;    /* next block's index */
    uint32_t next_id;  /* next node id */
    uint64_t npcs;
} tb_t;

static inline void tb_room(tb_t *b, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->file = realloc(b->file, b->cap);
        if (!b->file)
            abort();
    }
}

static inline tb_t *tb_new(uint64_t input_len, uint64_t input_hash)
{
    tb_t *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    tb_room(b, GBT_HEADER_SIZE);
    gbt_enc_header(b->file, input_len, input_hash, gb_hash64);
    b->len = GBT_HEADER_SIZE;
    b->next_id = 1;
    return b;
}

static inline void tb_free(tb_t *b)
{
    free(b->file);
    free(b);
}

/* Closes the open block (if it has records) and appends it to the file. */
static inline void tb_flush(tb_t *b)
{
    if (b->blen == 0)
        return;
    tb_room(b, GBT_BLOCK_HEADER_SIZE + b->blen);
    gbt_enc_block_header(b->file + b->len, b->blk, (uint32_t)b->blen, b->index++, gb_hash64);
    memcpy(b->file + b->len + GBT_BLOCK_HEADER_SIZE, b->blk, b->blen);
    b->len += GBT_BLOCK_HEADER_SIZE + b->blen;
    b->blen = 0;
}

static inline void tb_need(tb_t *b, size_t n)
{
    if (b->blen + n > sizeof b->blk)
        tb_flush(b);
}

static inline uint32_t tb_node(tb_t *b, unsigned op, unsigned width, unsigned nargs,
                               uint32_t a0, uint32_t a1, uint32_t a2, uint64_t imm)
{
    uint32_t args[3] = {a0, a1, a2};
    tb_need(b, 3 + GBT_NODE_BODY(3));
    b->blen += gbt_enc_node(b->blk + b->blen, op, width, nargs, args, imm);
    return b->next_id++;
}

static inline uint32_t tb_in(tb_t *b, uint64_t off)
{
    return tb_node(b, GBT_OP_INPUT, 8, 0, 0, 0, 0, off);
}

static inline uint32_t tb_const(tb_t *b, unsigned w, uint64_t v)
{
    return tb_node(b, GBT_OP_CONST, w, 0, 0, 0, 0, v);
}

static inline uint32_t tb_bin(tb_t *b, unsigned op, unsigned w, uint32_t x, uint32_t y)
{
    return tb_node(b, op, w, 2, x, y, 0, 0);
}

static inline uint32_t tb_un(tb_t *b, unsigned op, unsigned w, uint32_t x, uint64_t imm)
{
    return tb_node(b, op, w, 1, x, 0, 0, imm);
}

static inline void tb_pc(tb_t *b, unsigned kind, unsigned taken, uint32_t site, uint32_t node)
{
    tb_need(b, 3 + GBT_PC_BODY);
    b->blen += gbt_enc_pc(b->blk + b->blen, kind, taken, site, node);
    b->npcs++;
}

static inline void tb_block(tb_t *b, uint32_t id)
{
    tb_need(b, 3 + GBT_BLOCK_BODY);
    b->blen += gbt_enc_block(b->blk + b->blen, id);
}

/* Appends END with the counts of what was written, and flushes. */
static inline void tb_end(tb_t *b, unsigned kind, int32_t code, uint64_t dropped)
{
    tb_need(b, 3 + GBT_END_BODY);
    b->blen += gbt_enc_end(b->blk + b->blen, kind, code, b->next_id - 1, b->npcs, dropped);
    tb_flush(b);
}

/* Appends raw record bytes (for malformed or unknown records). */
static inline void tb_raw(tb_t *b, const void *p, size_t n)
{
    tb_need(b, n);
    memcpy(b->blk + b->blen, p, n);
    b->blen += n;
}

static inline gb_trace_t *tb_load(tb_t *b, unsigned flags)
{
    gb_trace_t *t = NULL;
    gb_err_t e = {{0}};
    tb_flush(b);
    if (gb_trace_load_mem(b->file, b->len, flags, &t, &e) != 0) {
        fprintf(stderr, "tb_load: %s\n", e.msg);
        return NULL;
    }
    return t;
}

/* Copies `in`, then overwrites the bytes the model names (the Combine step). */
static inline uint8_t *tb_combine(const uint8_t *in, size_t len, const gb_model_t *m,
                                  size_t *out_len)
{
    size_t n = len;
    for (size_t i = 0; i < m->n; i++)
        if (m->offsets[i] + 1 > n && m->offsets[i] < 4096)
            n = (size_t)m->offsets[i] + 1;
    uint8_t *o = calloc(n ? n : 1, 1);
    if (!o)
        abort();
    memcpy(o, in, len);
    for (size_t i = 0; i < m->n; i++)
        if (m->offsets[i] < n)
            o[m->offsets[i]] = m->values[i];
    *out_len = n;
    return o;
}

#endif
