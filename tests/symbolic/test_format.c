/* SPDX-License-Identifier: Apache-2.0 */
/* Golden vectors for the .gbt format: a small trace built record by record
 * must equal golden/small.gbt.hex byte for byte, and must load as expected. */
#include <stdint.h>
#include <unistd.h>

#include "tb.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name tests/symbolic/golden"
#endif

/* The lecture's top("good") run, cut short of the abort: four branches on
 * the four input bytes, two blocks of records, then END. */
static tb_t *build_small(void)
{
    tb_t *b = tb_new(4, gb_hash64("good", 4, 0));
    tb_block(b, 0x1234);
    uint32_t in0 = tb_in(b, 0);
    uint32_t cb = tb_const(b, 8, 'b');
    uint32_t eq0 = tb_bin(b, GBT_OP_EQ, 1, in0, cb);
    tb_pc(b, GBT_PC_BRANCH, 0, 0xa0000001u, eq0);
    uint32_t in1 = tb_in(b, 1);
    uint32_t eq1 = tb_bin(b, GBT_OP_EQ, 1, in1, tb_const(b, 8, 'a'));
    tb_pc(b, GBT_PC_BRANCH, 0, 0xa0000002u, eq1);
    tb_flush(b); /* first block ends here */
    tb_block(b, 0x4321);
    uint32_t in2 = tb_in(b, 2);
    tb_pc(b, GBT_PC_BRANCH, 0, 0xa0000003u, tb_bin(b, GBT_OP_EQ, 1, in2, tb_const(b, 8, 'd')));
    uint32_t in3 = tb_in(b, 3);
    tb_pc(b, GBT_PC_BRANCH, 0, 0xa0000004u, tb_bin(b, GBT_OP_EQ, 1, in3, tb_const(b, 8, '!')));
    tb_end(b, GBT_END_EXIT, 0, 0);
    return b;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Reads a hex dump: pairs of hex digits, whitespace, '#' comments. */
static uint8_t *read_hex(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *p = malloc(cap);
    int c, hi = -1;
    while (p && (c = fgetc(f)) != EOF) {
        if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            continue;
        }
        int v = hexval(c);
        if (v < 0)
            continue;
        if (hi < 0) {
            hi = v;
            continue;
        }
        if (n == cap)
            p = realloc(p, cap *= 2);
        if (p)
            p[n++] = (uint8_t)(hi << 4 | v);
        hi = -1;
    }
    fclose(f);
    *len = n;
    return p;
}

static void write_hex(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "# golden .gbt v1 trace (tests/symbolic/test_format.c build_small)\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x%s", p[i], (i % 16 == 15 || i + 1 == n) ? "\n" : " ");
    fclose(f);
}

/* Field positions straight from docs/trace-format.md, independent of gbt.h. */
static void check_layout(const uint8_t *p, size_t n)
{
    CHECK(n > 56);
    CHECK(memcmp(p, "GBTRACE\0", 8) == 0);
    CHECK(p[8] == 1 && p[9] == 0);   /* version */
    CHECK(p[10] == 40 && p[11] == 0); /* header size */
    CHECK(p[12] == 0 && p[13] == 0 && p[14] == 0 && p[15] == 0);
    CHECK(p[16] == 4 && p[17] == 0); /* input length */
    CHECK(memcmp(p + 40, "GBLK", 4) == 0);
    /* first record of block 0: BLOCK 0x1234 */
    CHECK(p[56] == 3 && p[57] == 4 && p[58] == 0);
    CHECK(p[59] == 0x34 && p[60] == 0x12 && p[61] == 0 && p[62] == 0);
    /* then NODE INPUT 8 bits, no args, imm 0 */
    CHECK(p[63] == 1 && p[64] == 12 && p[65] == 0);
    CHECK(p[66] == 2 && p[67] == 8 && p[68] == 0 && p[69] == 0);
}

static void check_encoders(void)
{
    uint8_t r[64];
    uint32_t args[2] = {7, 9};
    CHECK(gbt_enc_node(r, GBT_OP_ADD, 16, 2, args, 0) == 23);
    static const uint8_t node[23] = {1, 20, 0, 3, 16, 2, 0, 7, 0, 0, 0, 9, 0, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(memcmp(r, node, 23) == 0);
    CHECK(gbt_enc_pc(r, GBT_PC_PIN, 1, 0xdeadbeefu, 0x01020304u) == 15);
    static const uint8_t pc[15] = {2, 12, 0, 1, 1, 0, 0, 0xef, 0xbe, 0xad, 0xde, 4, 3, 2, 1};
    CHECK(memcmp(r, pc, 15) == 0);
    CHECK(gbt_enc_end(r, GBT_END_SIGNAL, 11, 5, 6, 7) == 35);
    CHECK(r[0] == 4 && r[1] == 32 && r[3] == 1 && r[7] == 11 && r[11] == 5 && r[19] == 6 &&
          r[27] == 7);
}

static void check_loaded(gb_trace_t *t)
{
    gb_trace_info_t in;
    gb_trace_get_info(t, &in);
    CHECK(in.input_len == 4);
    CHECK(in.input_hash == gb_hash64("good", 4, 0));
    CHECK(in.complete == 1 && in.truncated == 0);
    CHECK(in.end_kind == GBT_END_EXIT && in.end_code == 0 && in.dropped == 0);
    CHECK(in.nodes == 12 && in.pcs == 4 && in.blocks == 2);
    size_t nb;
    const uint32_t *blocks = gb_trace_blocks(t, &nb);
    CHECK(nb == 2 && blocks[0] == 0x1234 && blocks[1] == 0x4321);
    for (size_t j = 0; j < 4; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        CHECK(pc.kind == GBT_PC_BRANCH && pc.taken == 0 && pc.site == 0xa0000001u + j);
        CHECK(gb_trace_eval_pc(t, j, (const uint8_t *)"good", 4) == 1);
        CHECK(gb_trace_eval_pc(t, j, (const uint8_t *)"bad!", 4) == 0);
    }
}

/* Unknown record types are skipped; a file without END is incomplete. */
static void check_unknown_and_incomplete(void)
{
    tb_t *b = tb_new(2, 0);
    static const uint8_t unknown[8] = {200, 5, 0, 1, 2, 3, 4, 5};
    tb_raw(b, unknown, sizeof unknown);
    uint32_t x = tb_in(b, 1);
    tb_pc(b, GBT_PC_SWITCH, 1, 5, tb_bin(b, GBT_OP_ULT, 1, x, tb_const(b, 8, 3)));
    static const uint8_t empty[3] = {201, 0, 0};
    tb_raw(b, empty, sizeof empty); /* an unknown type with an empty body */
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (t) {
        gb_trace_info_t in;
        gb_trace_get_info(t, &in);
        CHECK(in.complete == 0 && in.end_kind == -1 && in.pcs == 1);
        gb_pc_info_t pc;
        gb_trace_get_pc(t, 0, &pc);
        CHECK(pc.kind == GBT_PC_SWITCH && pc.taken == 1 && pc.site == 5);
        CHECK(gb_trace_eval_pc(t, 0, (const uint8_t *)"\0\2", 2) == 1);
        CHECK(gb_trace_eval_pc(t, 0, (const uint8_t *)"\0\3", 2) == 0);
        CHECK(gb_trace_eval_pc(t, 0, NULL, 0) == 1); /* bytes past len read as 0 */
    }
    gb_trace_free(t);
    tb_free(b);
}

/* Identical NODE records become one DAG node. */
static void check_hash_consing(void)
{
    tb_t *b = tb_new(1, 0);
    uint32_t a = tb_in(b, 0), a2 = tb_in(b, 0);
    uint32_t s1 = tb_bin(b, GBT_OP_ADD, 8, a, tb_const(b, 8, 1));
    uint32_t s2 = tb_bin(b, GBT_OP_ADD, 8, tb_const(b, 8, 1), a2);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, s1, s2));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (t) {
        gb_trace_info_t in;
        gb_trace_get_info(t, &in);
        /* x == x folds to the constant 1: only INPUT, CONST 1, ADD, CONST 1/1 remain */
        CHECK(in.nodes == 4);
    }
    gb_trace_free(t);
    tb_free(b);
}

int main(int argc, char **argv)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/small.gbt.hex", GB_TEST_DATA);
    tb_t *b = build_small();
    check_layout(b->file, b->len);
    if (argc > 1 && strcmp(argv[1], "--write-golden") == 0) {
        write_hex(path, b->file, b->len);
        printf("wrote %s (%zu bytes)\n", path, b->len);
    }
    size_t glen = 0;
    uint8_t *golden = read_hex(path, &glen);
    CHECK_MSG(golden != NULL, "cannot read %s", path);
    CHECK_MSG(golden && glen == b->len && memcmp(golden, b->file, glen) == 0,
              "built trace (%zu bytes) differs from %s (%zu bytes): the format changed", b->len,
              path, glen);
    if (golden) {
        /* load the golden bytes through the file path */
        char tmp[] = "/tmp/gb-golden-XXXXXX";
        int fd = mkstemp(tmp);
        CHECK(fd >= 0 && write(fd, golden, glen) == (ssize_t)glen);
        if (fd >= 0)
            close(fd);
        gb_trace_t *t = NULL;
        gb_err_t e = {{0}};
        CHECK_MSG(gb_trace_load(tmp, 0, &t, &e) == 0, "%s", e.msg);
        if (t)
            check_loaded(t);
        gb_trace_free(t);
        unlink(tmp);
        CHECK(gb_trace_load("/nonexistent/x.gbt", 0, &t, &e) == -1 && t == NULL);
    }
    free(golden);
    tb_free(b);
    check_encoders();
    check_unknown_and_incomplete();
    check_hash_consing();
    return check_exit("symbolic_format");
}
