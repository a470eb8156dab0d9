/* SPDX-License-Identifier: Apache-2.0 */
/* Every rejection case of docs/trace-format.md ("What a reader must
 * reject"): each gives a one-line error naming the problem and its offset. */
#include <stdint.h>

#include "tb.h"

/* Loads p[0..n) and expects failure with `what` and "offset <off>" in a
 * one-line message. */
static void expect_reject_at(const char *file, int line, const uint8_t *p, size_t n,
                             unsigned flags, const char *what, long off)
{
    gb_trace_t *t = (gb_trace_t *)1;
    gb_err_t e = {{0}};
    int r = gb_trace_load_mem(p, n, flags, &t, &e);
    char want[64];
    snprintf(want, sizeof want, "offset %ld", off);
    int ok = r == -1 && t == NULL && strstr(e.msg, what) && strchr(e.msg, '\n') == NULL &&
             (off < 0 || strstr(e.msg, want));
    if (!ok) {
        fprintf(stderr, "%s:%d: expected rejection \"%s\" at offset %ld, got r=%d \"%s\"\n",
                file, line, what, off, r, e.msg);
        check_failures++;
    }
    if (r == 0)
        gb_trace_free(t);
}
#define EXPECT_REJECT(p, n, flags, what, off) \
    expect_reject_at(__FILE__, __LINE__, p, n, flags, what, off)

/* A valid trace of one block: INPUT, CONST, EQ, PC, END. */
static tb_t *valid_one_block(void)
{
    tb_t *b = tb_new(2, 0);
    uint32_t x = tb_in(b, 0);
    tb_pc(b, GBT_PC_BRANCH, 1, 7, tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 8, 1)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    return b;
}

static void fix_header(uint8_t *p)
{
    gbt_put64(p + 32, gb_hash64(p, 32, 0));
}

static void fix_block(uint8_t *p, uint64_t index)
{
    uint32_t len = gbt_get32(p + 4);
    gbt_put64(p + 8, gb_hash64(p + 16, len, index));
}

static void header_cases(void)
{
    tb_t *b = valid_one_block();
    uint8_t *p = malloc(b->len);
    EXPECT_REJECT(b->file, 0, 0, "short header", 0);
    EXPECT_REJECT(b->file, 39, GB_TRACE_PREFIX_OK, "short header", 0);
    struct { size_t at; uint8_t val; const char *what; long off; } m[] = {
        {0, 'X', "bad magic", 0},     {7, 1, "bad magic", 0},
        {8, 4, "version", 8},         {9, 1, "version", 8},
        {10, 41, "header size", 10},  {12, 1, "flags", 12},
        {15, 0x80, "flags", 12},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        memcpy(p, b->file, b->len);
        p[m[i].at] = m[i].val;
        fix_header(p);
        EXPECT_REJECT(p, b->len, GB_TRACE_PREFIX_OK, m[i].what, m[i].off);
    }
    for (size_t at = 0; at < 40; at++) { /* any unfixed header change breaks the checksum */
        memcpy(p, b->file, b->len);
        p[at] ^= 0x40;
        EXPECT_REJECT(p, b->len, 0, "", -1);
    }
    memcpy(p, b->file, b->len);
    p[20] ^= 1; /* input length: only the checksum notices */
    EXPECT_REJECT(p, b->len, 0, "header checksum", 32);
    free(p);
    tb_free(b);
}

static void block_cases(void)
{
    tb_t *b = valid_one_block();
    size_t n = b->len;
    uint8_t *p = malloc(2 * n + 64);
    memcpy(p, b->file, n);
    p[40] ^= 1;
    EXPECT_REJECT(p, n, GB_TRACE_PREFIX_OK, "bad block magic", 40);
    memcpy(p, b->file, n);
    gbt_put32(p + 44, 0);
    EXPECT_REJECT(p, n, GB_TRACE_PREFIX_OK, "bad block length 0", 40);
    gbt_put32(p + 44, GBT_BLOCK_MAX + 1);
    EXPECT_REJECT(p, n, GB_TRACE_PREFIX_OK, "bad block length", 40);
    memcpy(p, b->file, n);
    p[n - 1] ^= 1; /* payload byte */
    EXPECT_REJECT(p, n, GB_TRACE_PREFIX_OK, "checksum mismatch", 40);
    memcpy(p, b->file, n);
    p[50] ^= 1; /* the checksum itself */
    EXPECT_REJECT(p, n, GB_TRACE_PREFIX_OK, "checksum mismatch", 40);
    memcpy(p, b->file, n);
    gbt_put32(p + 44, gbt_get32(p + 44) + 1); /* claims one byte more than there is */
    EXPECT_REJECT(p, n, 0, "runs past the end of the file", 40);
    EXPECT_REJECT(b->file, n - 1, 0, "truncated", 40);
    /* trailing bytes: part of a block header */
    memcpy(p, b->file, n);
    memcpy(p + n, b->file + 40, 16);
    EXPECT_REJECT(p, n + 5, 0, "not a whole block header", (long)n);
    EXPECT_REJECT(p, n + 15, 0, "not a whole block header", (long)n);
    EXPECT_REJECT(p, n + 2, 0, "not a whole block header", (long)n);
    memset(p + n, 0xee, 20); /* trailing garbage */
    EXPECT_REJECT(p, n + 20, GB_TRACE_PREFIX_OK, "bad block magic", (long)n);
    /* a whole block replayed in second position: its checksum seed is wrong */
    memcpy(p + n, b->file + 40, n - 40);
    EXPECT_REJECT(p, n + n - 40, 0, "block 1 checksum mismatch", (long)n);
    free(p);
    tb_free(b);
}

/* Appends `rec` (len bytes) as the first record of a fresh trace that
 * already holds nodes 1 = INPUT 0 (8 bits) and 2 = CONST 16 bits, 3 = EQ. */
static void expect_record(const char *file, int line, const void *rec, size_t len,
                          const char *what)
{
    tb_t *b = tb_new(1, 0);
    uint32_t x = tb_in(b, 0);
    tb_const(b, 16, 0x1234);
    tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 8, 3));
    long off = (long)(b->len + GBT_BLOCK_HEADER_SIZE + b->blen);
    tb_raw(b, rec, len);
    tb_flush(b);
    expect_reject_at(file, line, b->file, b->len, GB_TRACE_PREFIX_OK, what, off);
    tb_free(b);
}
#define EXPECT_RECORD(rec, len, what) expect_record(__FILE__, __LINE__, rec, len, what)

/* Node ids in expect_record's trace: 1 = 8-bit input, 2 = 16-bit const,
 * 3 = 8-bit const, 4 = 1-bit EQ; the bad record would be node 5. */
static void node(unsigned op, unsigned w, unsigned nargs, uint32_t a0, uint32_t a1,
                 uint32_t a2, uint64_t imm, const char *what, int line)
{
    uint8_t r[64];
    uint32_t args[3] = {a0, a1, a2};
    size_t n = gbt_enc_node(r, op, w, nargs, args, imm);
    expect_record(__FILE__, line, r, n, what);
}
#define BAD_NODE(op, w, nargs, a0, a1, a2, imm, what) \
    node(op, w, nargs, a0, a1, a2, imm, what, __LINE__)

static void node_cases(void)
{
    BAD_NODE(0, 8, 0, 0, 0, 0, 0, "unknown op 0");
    BAD_NODE(33, 8, 2, 1, 1, 0, 0, "unknown op 33");
    BAD_NODE(255, 8, 0, 0, 0, 0, 0, "unknown op");
    BAD_NODE(GBT_OP_ADD, 8, 1, 1, 0, 0, 0, "with 1 args (needs 2)");
    BAD_NODE(GBT_OP_ITE, 8, 2, 4, 1, 0, 0, "args (needs 3)");
    BAD_NODE(GBT_OP_CONST, 8, 1, 1, 0, 0, 0, "args (needs 0)");
    BAD_NODE(GBT_OP_NOT, 8, 0, 0, 0, 0, 0, "args (needs 1)");
    BAD_NODE(GBT_OP_CONST, 0, 0, 0, 0, 0, 0, "width 0 out of range");
    BAD_NODE(GBT_OP_CONST, 65, 0, 0, 0, 0, 0, "width 65 out of range");
    BAD_NODE(GBT_OP_ADD, 8, 2, 1, 2, 0, 0, "inconsistent");  /* 8 + 16 */
    BAD_NODE(GBT_OP_ADD, 16, 2, 1, 1, 0, 0, "inconsistent"); /* result width */
    BAD_NODE(GBT_OP_SHL, 8, 2, 1, 4, 0, 0, "inconsistent");
    BAD_NODE(GBT_OP_NOT, 16, 1, 1, 0, 0, 0, "inconsistent");
    BAD_NODE(GBT_OP_NEG, 1, 1, 1, 0, 0, 0, "inconsistent");
    BAD_NODE(GBT_OP_ZEXT, 8, 1, 1, 0, 0, 0, "inconsistent"); /* not wider */
    BAD_NODE(GBT_OP_SEXT, 4, 1, 1, 0, 0, 0, "inconsistent");
    BAD_NODE(GBT_OP_EXTRACT, 8, 1, 1, 0, 0, 1, "inconsistent"); /* bits 1..8 of 8 */
    BAD_NODE(GBT_OP_EXTRACT, 1, 1, 1, 0, 0, 8, "inconsistent");
    BAD_NODE(GBT_OP_EXTRACT, 4, 1, 1, 0, 0, UINT64_MAX - 2, "inconsistent"); /* no wrap */
    BAD_NODE(GBT_OP_CONCAT, 16, 2, 1, 2, 0, 0, "inconsistent"); /* 8 + 16 != 16 */
    BAD_NODE(GBT_OP_EQ, 8, 2, 1, 3, 0, 0, "inconsistent");      /* result not 1 */
    BAD_NODE(GBT_OP_ULT, 1, 2, 1, 2, 0, 0, "inconsistent");     /* 8 vs 16 */
    BAD_NODE(GBT_OP_ITE, 8, 3, 1, 1, 3, 0, "inconsistent");     /* cond 8 bits */
    BAD_NODE(GBT_OP_ITE, 8, 3, 4, 1, 2, 0, "inconsistent");     /* branches differ */
    BAD_NODE(GBT_OP_ITE, 16, 3, 4, 1, 3, 0, "inconsistent");
    BAD_NODE(GBT_OP_INPUT, 16, 0, 0, 0, 0, 0, "inconsistent");
    BAD_NODE(GBT_OP_INPUT, 8, 0, 0, 0, 0, 1ull << 32, "inconsistent");
    BAD_NODE(GBT_OP_CONST, 8, 0, 0, 0, 0, 0x100, "inconsistent"); /* bits above width */
    BAD_NODE(GBT_OP_CONST, 1, 0, 0, 0, 0, 2, "inconsistent");
    BAD_NODE(GBT_OP_ADD, 8, 2, 1, 3, 0, 5, "nonzero imm");
    BAD_NODE(GBT_OP_ADD, 8, 2, 1, 0, 0, 0, "argument 1 (id 0) is not an earlier node");
    BAD_NODE(GBT_OP_ADD, 8, 2, 5, 1, 0, 0, "argument 0 (id 5) is not an earlier node");
    BAD_NODE(GBT_OP_NOT, 8, 1, 99, 0, 0, 0, "not an earlier node");
    BAD_NODE(GBT_OP_ITE, 8, 3, 4, 1, 0xffffffffu, 0, "not an earlier node");
    /* a known type with the wrong body length */
    uint8_t r[64];
    size_t n = gbt_enc_node(r, GBT_OP_INPUT, 8, 0, NULL, 0);
    r[1] = (uint8_t)(n - 3 + 1);
    r[n] = 0;
    EXPECT_RECORD(r, n + 1, "NODE body length 13 (expected 12)");
    static const uint8_t tiny[5] = {GBT_REC_NODE, 2, 0, GBT_OP_CONST, 8};
    EXPECT_RECORD(tiny, sizeof tiny, "too short");
}

/* Floating point (version 3): in a version-3 trace whose nodes are 1 =
 * 32-bit const, 2 = 64-bit const, 3 = 8-bit input; the bad node is 4. */
static void fp_node(unsigned op, unsigned w, unsigned nargs, uint32_t a0, uint32_t a1,
                    const char *what, int line)
{
    tb_t *b = tb_new(1, 0);
    gbt_enc_header_v(b->file, GBT_VERSION_FP, 1, 0, gb_hash64);
    tb_const(b, 32, 0x3f800000);
    tb_const(b, 64, 0x3ff0000000000000ull);
    tb_in(b, 0);
    uint8_t r[64];
    uint32_t args[3] = {a0, a1, 0};
    size_t n = gbt_enc_node(r, op, w, nargs, args, 0);
    long off = (long)(b->len + GBT_BLOCK_HEADER_SIZE + b->blen);
    tb_raw(b, r, n);
    tb_flush(b);
    expect_reject_at(__FILE__, line, b->file, b->len, GB_TRACE_PREFIX_OK, what, off);
    tb_free(b);
}
#define BAD_FP_NODE(op, w, nargs, a0, a1, what) fp_node(op, w, nargs, a0, a1, what, __LINE__)

static void fp_node_cases(void)
{
    BAD_NODE(GBT_OP_FADD, 8, 2, 1, 3, 0, 0, "unknown op 48"); /* version 1 */
    BAD_NODE(GBT_OP_FOLT, 1, 2, 1, 3, 0, 0, "unknown op 37");
    BAD_FP_NODE(GBT_OP_FADD, 32, 2, 1, 2, "inconsistent");   /* 32 + 64 */
    BAD_FP_NODE(GBT_OP_FADD, 64, 2, 1, 1, "inconsistent");   /* result width */
    BAD_FP_NODE(GBT_OP_FMUL, 8, 2, 3, 3, "inconsistent");    /* not a float width */
    BAD_FP_NODE(GBT_OP_FOLT, 1, 2, 1, 2, "inconsistent");    /* 32 vs 64 */
    BAD_FP_NODE(GBT_OP_FUNE, 8, 2, 1, 1, "inconsistent");    /* result not 1 */
    BAD_FP_NODE(GBT_OP_FOEQ, 1, 2, 3, 3, "inconsistent");    /* 8-bit floats */
    BAD_FP_NODE(GBT_OP_SITOFP, 16, 1, 3, 0, "inconsistent"); /* 16-bit float */
    BAD_FP_NODE(GBT_OP_FPTOSI, 32, 1, 3, 0, "inconsistent"); /* from 8 bits */
    BAD_FP_NODE(GBT_OP_FPEXT, 64, 1, 2, 0, "inconsistent");  /* from 64 */
    BAD_FP_NODE(GBT_OP_FPTRUNC, 32, 1, 1, 0, "inconsistent"); /* from 32 */
    BAD_FP_NODE(GBT_OP_FDIV, 64, 1, 2, 0, "with 1 args (needs 2)");
    BAD_FP_NODE(GBT_OP_UITOFP, 64, 2, 3, 3, "with 2 args (needs 1)");
    BAD_FP_NODE(GBT_OP_FPTRUNC + 1, 32, 1, 2, 0, "unknown op 58");
}

static void other_record_cases(void)
{
    uint8_t r[64];
    size_t n = gbt_enc_pc(r, GBT_PC_BRANCH, 1, 9, 1); /* an 8-bit node */
    EXPECT_RECORD(r, n, "width 8, not 1");
    gbt_enc_pc(r, GBT_PC_BRANCH, 1, 9, 0);
    EXPECT_RECORD(r, n, "PC node 0 is not a node");
    gbt_enc_pc(r, GBT_PC_PIN, 1, 9, 5);
    EXPECT_RECORD(r, n, "PC node 5 is not a node");
    gbt_enc_pc(r, GBT_PC_BRANCH, 1, 9, 4);
    r[3] = 4;
    EXPECT_RECORD(r, n, "unknown kind 4");
    gbt_enc_pc(r, GBT_PC_BRANCH, 1, 9, 4);
    r[4] = 2;
    EXPECT_RECORD(r, n, "taken 2");
    gbt_enc_pc(r, GBT_PC_BRANCH, 1, 9, 4);
    r[1] = 11;
    EXPECT_RECORD(r, n - 1, "PC body length 11");
    n = gbt_enc_block(r, 5);
    r[1] = 3;
    EXPECT_RECORD(r, n - 1, "BLOCK body length 3");
    n = gbt_enc_end(r, GBT_END_EXIT, 0, 4, 0, 0);
    r[1] = 31;
    EXPECT_RECORD(r, n - 1, "END body length 31");
    gbt_enc_end(r, 3, 0, 4, 0, 0);
    EXPECT_RECORD(r, n, "END with unknown kind 3");
    gbt_enc_end(r, GBT_END_EXIT, 0, 5, 0, 0);
    EXPECT_RECORD(r, n, "END counts 5 nodes");
    gbt_enc_end(r, GBT_END_EXIT, 0, 4, 1, 0);
    EXPECT_RECORD(r, n, "and 1 pcs");
    /* records that run past their block */
    static const uint8_t cut_hdr[2] = {GBT_REC_BLOCK, 4};
    EXPECT_RECORD(cut_hdr, sizeof cut_hdr, "record header runs past its block");
    static const uint8_t cut_body[5] = {GBT_REC_BLOCK, 4, 0, 1, 2};
    EXPECT_RECORD(cut_body, sizeof cut_body, "record of 4 bytes runs past its block");
    static const uint8_t cut_unknown[6] = {77, 0xff, 0xff, 1, 2, 3};
    EXPECT_RECORD(cut_unknown, sizeof cut_unknown, "runs past its block");
}

/* Two ENDs, and a bad record after good blocks (prefix mode still fails). */
static void sequence_cases(void)
{
    tb_t *b = valid_one_block();
    size_t n = b->len;
    uint8_t end[64];
    size_t en = gbt_enc_end(end, GBT_END_EXIT, 0, 3, 1, 0);
    tb_raw(b, end, en);
    tb_flush(b);
    EXPECT_REJECT(b->file, b->len, 0, "second END record", (long)(n + 16));
    tb_free(b);

    b = valid_one_block();
    n = b->len;
    uint8_t r[64];
    uint32_t args[2] = {1, 42};
    tb_raw(b, r, gbt_enc_node(r, GBT_OP_ADD, 8, 2, args, 0));
    tb_flush(b);
    EXPECT_REJECT(b->file, b->len, GB_TRACE_PREFIX_OK, "not an earlier node", (long)(n + 16));
    /* the checksum is checked before any record of the block is read */
    b->file[n + 16] = 0;
    fix_block(b->file + n, 0);
    EXPECT_REJECT(b->file, b->len, 0, "block 1 checksum mismatch", (long)n);
    tb_free(b);
}

int main(void)
{
    header_cases();
    block_cases();
    node_cases();
    fp_node_cases();
    other_record_cases();
    sequence_cases();
    return check_exit("symbolic_reject");
}
