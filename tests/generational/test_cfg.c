/* SPDX-License-Identifier: Apache-2.0 */
/* The static CFG end to end: glassbox-cc writes it into cfgprog's builds,
 * generational/cfg.c reads it back, and the flips of real traces are
 * judged against chosen coverage maps (into a callee, back out through a
 * return, switch cases, an indirect call). Also: binaries without the
 * section, and malformed sections.
 * Usage: test_cfg O0-TRACE O0-COV O2-TRACE O2-COV DISP-O0-TRACE DISP-O0-COV
 *                 DISP-O2-TRACE DISP-O2-COV WORKDIR
 *        test_cfg --ids A B [A B ...]   (test_ids below) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfg_int.h"
#include "symbolic.h"

static int fails;
static const char *work;

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fails++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

static gb_cfg_t *load(const char *bin)
{
    gb_cfg_t *c = NULL;
    gb_err_t e;
    if (gb_cfg_load(bin, &c, &e) != 0 || !c) {
        fprintf(stderr, "FAIL: no CFG in %s: %s\n", bin, c ? "" : e.msg);
        exit(1);
    }
    return c;
}

/* Runs the trace build on the 4-byte input `in` and loads its trace. */
static gb_trace_t *trace_of(const char *bin, const char *in)
{
    char inpath[4096], out[4096];
    snprintf(inpath, sizeof inpath, "%s/in", work);
    snprintf(out, sizeof out, "%s/t.gbt", work);
    FILE *f = fopen(inpath, "wb");
    if (!f || fwrite(in, 1, 4, f) != 4 || fclose(f) != 0)
        exit(1);
    unlink(out);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("GLASSBOX_TRACE_OUT", out, 1);
        execl(bin, bin, inpath, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    gb_trace_t *t = NULL;
    gb_err_t e;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || gb_trace_load(out, 0, &t, &e) != 0) {
        fprintf(stderr, "FAIL: tracing %s on %.4s\n", bin, in);
        exit(1);
    }
    return t;
}

static void cover(uint8_t *virgin, const gb_trace_t *t)
{
    size_t n;
    const uint32_t *b = gb_trace_blocks(t, &n);
    for (size_t i = 0; i < n; i++)
        virgin[b[i]] = 1;
}

static gb_pc_info_t pc_at(const gb_trace_t *t, size_t i)
{
    gb_pc_info_t pc;
    gb_trace_get_pc(t, i, &pc);
    return pc;
}

static uint32_t covered(const uint8_t *virgin)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < GB_MAP_SIZE; i++)
        n += virgin[i] != 0;
    return n;
}

/* The entry kinds and directions a trace must have (B = branch taken,
 * b = not taken, S/s = switch case), so the positions below mean what the
 * comments say. */
static void expect_shape(const gb_trace_t *t, const char *shape, const char *in)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    char got[64] = "";
    for (size_t i = 0; i < info.pcs && i < sizeof got - 1; i++) {
        gb_pc_info_t pc = pc_at(t, i);
        char k = pc.kind == GBT_PC_BRANCH ? 'b' : pc.kind == GBT_PC_SWITCH ? 's' : '?';
        got[i] = pc.taken && k != '?' ? (char)(k - 'a' + 'A') : k;
    }
    EXPECT(strcmp(got, shape) == 0, "trace of %.4s has entries %s, want %s", in, got, shape);
}

/* want[i] = expected gb_cfg_flip_may_reach of entry i ('0', '1'). */
static void expect_flips(gb_cfg_t *c, const gb_trace_t *t, const uint8_t *virgin,
                         const char *want, const char *what)
{
    for (size_t i = 0; want[i]; i++) {
        gb_pc_info_t pc = pc_at(t, i);
        int got = gb_cfg_flip_may_reach(c, pc.kind, pc.site, pc.taken, virgin, covered(virgin));
        EXPECT(got == want[i] - '0', "%s: flip of entry %zu: may reach = %d, want %c", what, i,
               got, want[i]);
    }
}

/* Inputs: T1 "ACx0", T2 "BDy0", T3 "ACz0", T4 "I000", T5 "ACx\7".
 * Entries: [0] d0=='I', [1] d0=='A', [2] d1=='C', [3] leaf's v==7 (when
 * called), then switch cases 'x' and 'y'. */
static const char *const prog_in[5] = {"ACx0", "BDy0", "ACz0", "I000", "ACx\007"};

static void test_reach(const char *tbin, const char *cbin)
{
    const char *const *in = prog_in;
    static const char *shape[5] = {"bBBbSs", "bbbsS", "bBBbss", "B", "bBBBSs"};
    gb_trace_t *t[5];
    for (int i = 0; i < 5; i++) {
        t[i] = trace_of(tbin, in[i]);
        expect_shape(t[i], shape[i], in[i]);
    }
    if (fails)
        return;
    static uint8_t b[GB_MAP_SIZE], a[GB_MAP_SIZE], cm[GB_MAP_SIZE];
    for (int i = 0; i < 5; i++) {
        cover(a, t[i]);
        if (i != 4)
            cover(b, t[i]); /* leaf's "v == 7" block never ran */
        if (i != 2)
            cover(cm, t[i]); /* the switch's default never ran */
    }
    gb_cfg_t *c = load(cbin);
    /* B: d0=='A' flipped either way, and d1=='C' flipped to taken, reach
     * the call of leaf and its uncovered block; d1=='C' flipped to not
     * taken, the switch, and d0=='I' (the indirect call can only reach the
     * address-taken cfgprog_cb, which is covered) cannot. */
    expect_flips(c, t[0], b, "010100", "T1 without leaf's v==7");
    expect_flips(c, t[1], b, "01100", "T2 without leaf's v==7");
    expect_flips(c, t[3], b, "1", "T4 without leaf's v==7");
    /* A: coverage grew on the same CFG (cached answers are rechecked);
     * nothing is left to find. */
    expect_flips(c, t[0], a, "000000", "T1 with everything covered");
    expect_flips(c, t[1], a, "00000", "T2 with everything covered");
    expect_flips(c, t[3], a, "0", "T4 with everything covered");
    EXPECT(!gb_cfg_incomplete(c), "a CFG that lists every block is not incomplete");
    /* Pins, checks and unknown sites are never decided. */
    gb_pc_info_t pc = pc_at(t[0], 1);
    EXPECT(gb_cfg_flip_may_reach(c, GBT_PC_PIN, pc.site, 1, a, covered(a)) == 1,
           "a PIN is decided");
    EXPECT(gb_cfg_flip_may_reach(c, GBT_PC_CHECK, pc.site, 1, a, covered(a)) == 1,
           "a CHECK is decided");
    EXPECT(gb_cfg_flip_may_reach(c, GBT_PC_SWITCH, pc.site, 1, a, covered(a)) == 1,
           "wrong kind is decided");
    EXPECT(gb_cfg_flip_may_reach(c, GBT_PC_BRANCH, pc.site ^ 0x5a5a5a5au, 1, a, covered(a)) == 1,
           "an unknown site is decided");
    /* A covered block the CFG does not list: from then on nothing is skipped. */
    uint32_t foreign = 1;
    while (gb_cfg_has_block(c, foreign))
        foreign++;
    a[foreign] = 1;
    expect_flips(c, t[0], a, "111111", "T1 with a block outside the CFG covered");
    EXPECT(gb_cfg_incomplete(c), "a foreign block does not make the CFG incomplete");
    gb_cfg_free(c);

    /* C, on a fresh CFG: flips inside leaf return to the switch, whose
     * default is uncovered; a case flipped to "==" leads to its covered
     * block and the return, a case flipped to "!=" may take the default. */
    c = load(cbin);
    expect_flips(c, t[0], cm, "011110", "T1 without the switch default");
    expect_flips(c, t[4], cm, "011110", "T5 without the switch default");
    expect_flips(c, t[1], cm, "01101", "T2 without the switch default");
    gb_cfg_free(c);

    /* D, fresh: the indirect call's target never ran. Returning from the
     * harness counts as code outside the CFG, which may call it. */
    static uint8_t dm[GB_MAP_SIZE];
    for (int i = 0; i < 5; i++)
        if (i != 3)
            cover(dm, t[i]);
    c = load(cbin);
    expect_flips(c, t[0], dm, "111111", "T1 without the indirect call");
    gb_cfg_free(c);
    for (int i = 0; i < 5; i++)
        gb_trace_free(t[i]);
}

/* cfgdisp.c, a decoder with a table of handlers and a logger callback.
 * Inputs: X1 "xBD0" (dispatches to disp_even), X2 "xAD0" (disp_odd), X3
 * "L000" and X4 "LZ00" (the logger, both ways), X5 "xBDq", X6 "xBDZ" (the
 * code after the dispatch), X7 "xBxW" and X8 "xBx0" (no dispatch; the
 * harness's last branch, both ways). Entries of X1: [0] d0=='L', [1] d2=='D', [2] CHECK and [3] PIN
 * of the table index, [4] disp_even's p[3]=='q', [5] disp_decode's
 * d3=='Z', [6] the harness's d3=='W'. */
static const char *const disp_in[8] = {"xBD0", "xAD0", "L000", "LZ00",
                                       "xBDq", "xBDZ", "xBxW", "xBx0"};

static void test_disp(const char *tbin, const char *cbin)
{
    static const char *shape[8] = {"bB??bbb", "bB??b", "Bb",  "BB",
                                   "bB??Bbb", "bB??bBb", "bbB", "bbb"};
    gb_trace_t *t[8];
    for (int i = 0; i < 8; i++) {
        t[i] = trace_of(tbin, disp_in[i]);
        expect_shape(t[i], shape[i], disp_in[i]);
    }
    static uint8_t m1[GB_MAP_SIZE], m2[GB_MAP_SIZE], m3[GB_MAP_SIZE];
    for (int i = 0; i < 8 && !fails; i++) {
        if (i != 3)
            cover(m1, t[i]); /* the logger's level > 'A' never ran */
        if (i != 5)
            cover(m2, t[i]); /* the code after the dispatch never ran */
        if (i != 6)
            cover(m3, t[i]); /* the harness's d3=='W' never held */
    }
    if (fails)
        return;
    /* M1: only the logger has something left. The indirect call of the
     * handlers (another signature) cannot reach it, nor can returns from
     * disp_decode (only its caller gets them) or from the harness (code
     * outside the CFG calls void(void) functions then, not the logger). */
    gb_cfg_t *c = load(cbin);
    expect_flips(c, t[6], m1, "100", "X7, logger half covered");
    expect_flips(c, t[0], m1, "1011000", "X1, logger half covered");
    expect_flips(c, t[2], m1, "01", "X3, logger half covered");
    gb_cfg_free(c);
    /* M2: a handler's return goes back to the dispatch, which is followed
     * by the uncovered block. */
    c = load(cbin);
    expect_flips(c, t[0], m2, "0111110", "X1, after the dispatch uncovered");
    expect_flips(c, t[4], m2, "0111110", "X5, after the dispatch uncovered");
    gb_cfg_free(c);
    /* M3: disp_wrap calls and returns in one block: a return into it
     * returns on to the harness, whose last branch has an arm left. */
    c = load(cbin);
    expect_flips(c, t[0], m3, "0111111", "X1, harness's W uncovered");
    expect_flips(c, t[7], m3, "011", "X8, harness's W uncovered");
    gb_cfg_free(c);
    for (int i = 0; i < 8; i++)
        gb_trace_free(t[i]);
}

/* Whatever the optimizer did, every branch and switch entry a trace
 * records names a site of the CFG (the numbering agrees), and with the
 * whole program covered some flip is not worth a query. */
static void test_sites(const char *tbin, const char *cbin, const char *const *in, int nin)
{
    gb_cfg_t *c = load(cbin);
    static uint8_t v[GB_MAP_SIZE];
    memset(v, 0, sizeof v);
    gb_trace_t *t[8];
    for (int i = 0; i < nin; i++) {
        t[i] = trace_of(tbin, in[i]);
        cover(v, t[i]);
        size_t n;
        const uint32_t *b = gb_trace_blocks(t[i], &n);
        for (size_t k = 0; k < n; k++)
            EXPECT(gb_cfg_has_block(c, b[k]), "%s: block %u of %.4s is not in the CFG", tbin,
                   b[k], in[i]);
    }
    size_t decided = 0;
    for (int i = 0; i < nin; i++) {
        gb_trace_info_t info;
        gb_trace_get_info(t[i], &info);
        for (size_t k = 0; k < info.pcs; k++) {
            gb_pc_info_t pc = pc_at(t[i], k);
            if (pc.kind != GBT_PC_BRANCH && pc.kind != GBT_PC_SWITCH)
                continue; /* CHECK and PIN sites are no terminator's */
            EXPECT(gb_cfg_has_site(c, pc.kind, pc.site), "%s: entry %zu of %.4s (kind %u, "
                   "site %08x) is not in the CFG", tbin, k, in[i], pc.kind, pc.site);
            decided += !gb_cfg_flip_may_reach(c, pc.kind, pc.site, pc.taken, v, covered(v));
        }
    }
    EXPECT(decided > 0, "%s: no flip skipped with the whole program covered", tbin);
    EXPECT(!gb_cfg_incomplete(c), "%s: traces cover blocks the CFG does not list", tbin);
    for (int i = 0; i < nin; i++)
        gb_trace_free(t[i]);
    gb_cfg_free(c);
}

/* Runs `fmt` (two %s) in the work directory. */
/* ---- a hand-written section (docs/cfg-format.md) ----------------- */

typedef struct wbuf {
    uint8_t b[4096];
    size_t n;
} wbuf_t;

static void w(wbuf_t *b, uint32_t x)
{
    for (int k = 0; k < 4; k++)
        b->b[b->n++] = (uint8_t)(x >> (8 * k));
}

static void ws(wbuf_t *b, const char *s)
{
    size_t len = strlen(s);
    w(b, (uint32_t)len);
    for (size_t i = 0; i < (len + 3) / 4 * 4; i++)
        b->b[b->n++] = i < len ? (uint8_t)s[i] : 0;
}

/* Writes a count, then the list (-1 ends it). */
static void wlist(wbuf_t *b, const int *v)
{
    size_t n = 0;
    while (v[n] != -1)
        n++;
    w(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        w(b, v[i] == -2 ? GBCFG_SIG_UNKNOWN : (uint32_t)v[i]);
}

/* block: id, flags | kind << 8, site, successors, callees, indirect calls'
 * signatures (-1 ends each list; -2 is an unknown signature) */
static void wblock(wbuf_t *b, uint32_t id, uint32_t fk, uint32_t site, const int *succ,
                   const int *calls, const int *isigs)
{
    w(b, id), w(b, fk), w(b, site);
    wlist(b, succ);
    wlist(b, calls);
    wlist(b, isigs);
}

/* Where test_handmade wrote the words its malformed variants change. */
typedef struct hand_at {
    size_t nsigs, sym_sig, sym_flags, func_sig, isig;
} hand_at_t;

enum { RET = 1, INDIRECT = 2, DEAD = 8, K_BR = 1 << 8, K_SWITCH = 2 << 8, UNK = -2 };

/* The functions after f: cb (v(i32)), the local g, the handler h
 * (i32(p,i64)), main (an entry point), fin (an exit handler, v()), k
 * (non-local, neither), s (calls qsort, then an uncovered block) and the
 * comparator cmp (i32(p,p)). */
static void hand_funcs(wbuf_t *b)
{
    const int none[] = {-1}, two[] = {1, 1, -1}, diamond[] = {1, 2, -1}, join[] = {2, -1};
    const int next[] = {1, -1}, qsort_[] = {1, -1};
    w(b, 2), ws(b, "cb"), w(b, 1), w(b, 1);
    wblock(b, 200, RET, 0, none, none, none);
    w(b, 1), ws(b, "g"), w(b, 2), w(b, 2);
    wblock(b, 300, K_BR, 0x3000, two, none, none);
    wblock(b, 301, RET, 0, none, none, none);
    w(b, 3), ws(b, "h"), w(b, 0), w(b, 3);
    wblock(b, 400, K_BR, 0x4000, diamond, none, none);
    wblock(b, 401, 0, 0, join, none, none);
    wblock(b, 402, RET, 0, none, none, none);
    w(b, 0), ws(b, "main"), w(b, 2), w(b, 3);
    wblock(b, 500, K_BR, 0x5000, diamond, none, none);
    wblock(b, 501, 0, 0, join, none, none);
    wblock(b, 502, RET, 0, none, none, none);
    w(b, 2), ws(b, "fin"), w(b, 2), w(b, 1);
    wblock(b, 600, RET, 0, none, none, none);
    w(b, 0), ws(b, "k"), w(b, 2), w(b, 3);
    wblock(b, 700, K_BR, 0x7000, diamond, none, none);
    wblock(b, 701, 0, 0, join, none, none);
    wblock(b, 702, RET, 0, none, none, none);
    w(b, 0), ws(b, "s"), w(b, 2), w(b, 2);
    wblock(b, 800, 0, 0, next, qsort_, none);
    wblock(b, 801, RET, 0, none, none, none);
    w(b, 3), ws(b, "cmp"), w(b, 4), w(b, 3);
    wblock(b, 900, K_BR, 0x9000, diamond, none, none);
    wblock(b, 901, 0, 0, join, none, none);
    wblock(b, 902, RET, 0, none, none, none);
}

/* f: a switch (site 0x2000) whose case 0 calls memcpy (never calls back),
 * case 1 qsort (may call back), case 2 the local g and then a dead block,
 * case 3 makes an indirect call of unknown signature, cases 4, 5 and 6
 * indirect calls of i32(p,i64) (the handler h), v(i32) (cb) and
 * v(p,i32) (lj, a function outside the CFG whose address is taken). */
static void hand_section(wbuf_t *b, hand_at_t *at)
{
    const int none[] = {-1}, s0[] = {6, 1, 2, 4, 3, 7, 8, 9, -1}, s4[] = {5, -1};
    const int memcpy_[] = {0, -1}, qsort_[] = {1, -1}, g_[] = {2, -1};
    const int unk[] = {UNK, -1}, i0[] = {0, -1}, i1[] = {1, -1}, i3[] = {3, -1};
    w(b, 0x46434247), w(b, 2), w(b, 0);
    ws(b, "hand.c");
    at->nsigs = b->n;
    w(b, 5), ws(b, "i32(p,i64)"), ws(b, "v(i32)"), ws(b, "v()"), ws(b, "v(p,i32)");
    ws(b, "i32(p,p)");
    w(b, 4);
    at->sym_flags = b->n;
    w(b, 0), ws(b, "memcpy"), w(b, GBCFG_SIG_UNKNOWN);
    w(b, 0), ws(b, "qsort"), w(b, GBCFG_SIG_UNKNOWN);
    w(b, 1), ws(b, "g"), w(b, 2); /* local */
    w(b, 2), ws(b, "lj");
    at->sym_sig = b->n;
    w(b, 3); /* address-taken, defined outside the CFG */
    w(b, 9);
    w(b, 0), ws(b, "f");
    at->func_sig = b->n;
    w(b, 2), w(b, 10);
    wblock(b, 100, K_SWITCH, 0x2000, s0, none, none);
    wblock(b, 101, 0, 0, none, memcpy_, none);
    wblock(b, 102, 0, 0, none, qsort_, none);
    wblock(b, 103, INDIRECT, 0, none, none, unk);
    wblock(b, 104, 0, 0, s4, g_, none);
    wblock(b, 105, DEAD, 0, none, none, none);
    wblock(b, 106, 0, 0, none, none, none);
    at->isig = b->n + 6 * 4; /* after id, flags, site and three counts */
    wblock(b, 107, INDIRECT, 0, none, none, i0);
    wblock(b, 108, INDIRECT, 0, none, none, i1);
    wblock(b, 109, INDIRECT, 0, none, none, i3);
    hand_funcs(b);
    uint32_t words = (uint32_t)(b->n / 4);
    memcpy(b->b + 8, &words, 4);
}

/* Flips (kind, site, taken) with every block of hand_section covered but
 * cb, fin and s's block after qsort (801), and those of `more` (0 ends). */
static int hand_reach(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                      const uint32_t *more)
{
    static uint8_t v[GB_MAP_SIZE];
    const uint32_t cov[] = {100, 101, 102, 103, 104, 106, 107, 108, 109, 300, 301, 400, 401,
                            402, 500, 501, 502, 700, 701, 702, 800, 900, 901, 902};
    memset(v, 0, sizeof v);
    uint32_t n = (uint32_t)(sizeof cov / sizeof cov[0]);
    for (uint32_t i = 0; i < n; i++)
        v[cov[i]] = 1;
    for (; more && *more; more++, n++)
        v[*more] = 1;
    return gb_cfg_flip_may_reach(c, kind, site, taken, v, n);
}

/* gb_cfg_flip_opens: whether the new direction starts at a block no run
 * hit. f's switch (block 100, site 0x2000 + arm): case 0 is block 101,
 * "not case 0" the default (106) and the other cases. */
static void hand_opens(gb_cfg_t *c)
{
    static uint8_t v[GB_MAP_SIZE];
    const uint32_t others[] = {106, 102, 104, 103, 107, 108, 109};
    enum { SW = GBT_PC_SWITCH };
    memset(v, 0, sizeof v);
    v[100] = 1;
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2000, 0, v) == 1, "case 0's block is uncovered: not open");
    v[101] = 1;
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2000, 0, v) == 0, "case 0's block is covered: open");
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2000, 1, v) == 1, "the other cases are uncovered: not open");
    for (size_t i = 0; i + 1 < sizeof others / sizeof others[0]; i++)
        v[others[i]] = 1;
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2000, 1, v) == 1, "one other case (109) is left: not open");
    v[109] = 1;
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2000, 1, v) == 0, "every other case is covered: open");
    memset(v, 0, sizeof v);
    EXPECT(gb_cfg_flip_opens(c, SW, 0x2fff, 0, v) == 0, "an unknown site counts as open");
    EXPECT(gb_cfg_flip_opens(c, GBT_PC_PIN, 0x2000, 0, v) == 0, "a pin counts as open");
    EXPECT(gb_cfg_flip_opens(NULL, SW, 0x2000, 0, v) == 0, "no CFG counts as open");
}

/* Each variant of the section with one word changed must be rejected. */
static void hand_malformed(wbuf_t *b, const hand_at_t *at)
{
    const struct {
        size_t at;
        uint32_t was, word;
        const char *what;
    } bad[] = {
        {at->nsigs, 5, 1000, "a signature count past the record"},
        {at->sym_sig, 3, 5, "a symbol's signature index past the table"},
        {at->sym_flags, 0, 4, "an unknown symbol flag"},
        {at->func_sig, 2, 7, "a function's signature index past the table"},
        {at->isig, 0, 5, "an indirect call's signature index past the table"},
        {at->isig - 4, 1, 1000, "an indirect call count past the record"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t old;
        memcpy(&old, b->b + bad[i].at, 4);
        EXPECT(old == bad[i].was, "%s: the word changed is %u, not %u", bad[i].what, old,
               bad[i].was);
        memcpy(b->b + bad[i].at, &bad[i].word, 4);
        gb_cfg_t *c = NULL;
        gb_err_t e;
        EXPECT(gb_cfg_parse(b->b, b->n, &c, &e) == -1, "%s parses", bad[i].what);
        gb_cfg_free(c);
        memcpy(b->b + bad[i].at, &old, 4);
    }
}

static void test_handmade(void)
{
    wbuf_t b = {0};
    hand_at_t at;
    hand_section(&b, &at);
    gb_cfg_t *c = NULL;
    gb_err_t e;
    if (gb_cfg_parse(b.b, b.n, &c, &e) != 0) {
        EXPECT(0, "the hand-written section does not parse: %s", e.msg);
        return;
    }
    enum { SW = GBT_PC_SWITCH, BR = GBT_PC_BRANCH };
    EXPECT(hand_reach(c, SW, 0x2000, 0, NULL) == 0, "memcpy called back");
    EXPECT(hand_reach(c, SW, 0x2001, 0, NULL) == 1, "qsort cannot call back");
    EXPECT(hand_reach(c, SW, 0x2002, 0, NULL) == 0, "g or a dead block counted");
    EXPECT(hand_reach(c, SW, 0x2003, 0, NULL) == 1,
           "an indirect call of unknown type cannot reach cb");
    EXPECT(hand_reach(c, SW, 0x2004, 0, NULL) == 0, "an indirect call of i32(p,i64) reaches cb");
    EXPECT(hand_reach(c, SW, 0x2005, 0, NULL) == 1, "an indirect call of v(i32) cannot reach cb");
    EXPECT(hand_reach(c, SW, 0x2006, 0, NULL) == 1,
           "an indirect call of lj's type does not call out");
    EXPECT(hand_reach(c, SW, 0x2000, 1, NULL) == 1, "!= case 0 cannot take case 1");
    EXPECT(hand_reach(c, SW, 0x2007, 0, NULL) == 1, "a site past the cases is known");
    /* g is local: its return goes back to f's case 2, then the dead block */
    EXPECT(hand_reach(c, BR, 0x3000, 1, NULL) == 0, "g's branch reaches cb");
    /* h's return may go to code outside the CFG (qsort may have called it) */
    EXPECT(hand_reach(c, BR, 0x4000, 1, NULL) == 1, "h's return does not reach cb");
    /* main's return ends the run: exit-time code may call fin */
    EXPECT(hand_reach(c, BR, 0x5000, 1, NULL) == 1, "main's return does not reach fin");
    /* k is non-local but no entry point and not address-taken: only its
     * callers (none) get its return */
    EXPECT(hand_reach(c, BR, 0x7000, 1, NULL) == 0, "k's return reaches something");
    /* cmp returns into code outside the CFG (qsort), which returns into
     * s after its call: 801 is reachable, through nothing else */
    const uint32_t cb_fin[] = {200, 600, 0}, all[] = {200, 600, 801, 0};
    EXPECT(hand_reach(c, BR, 0x9000, 1, cb_fin) == 1, "cmp's return does not reach s's 801");
    EXPECT(hand_reach(c, BR, 0x9000, 1, all) == 0, "cmp's flip reaches something");
    hand_opens(c);
    gb_cfg_free(c);
    hand_malformed(&b, &at);
    b.b[at.func_sig + 12] = 0x10; /* f's first block: flag bit 4 */
    EXPECT(gb_cfg_parse(b.b, b.n, &c, &e) == -1, "an unknown block flag parses");
}

static int sh(const char *fmt, const char *a, const char *b)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && ", work);
    snprintf(cmd + n, sizeof cmd - (size_t)n, fmt, a, b);
    return system(cmd);
}

/* No section (an older build), not ELF, no file; then malformed sections. */
static void test_bad(const char *cbin)
{
    char path[4096], sec[4096];
    gb_cfg_t *c = NULL;
    gb_err_t e;
    snprintf(path, sizeof path, "%s/nocfg", work);
    EXPECT(sh("objcopy --remove-section=.gb_cfg '%s' '%s'", cbin, path) == 0, "objcopy failed");
    EXPECT(gb_cfg_load(path, &c, &e) == 0 && !c, "a binary without .gb_cfg gives a CFG");
    snprintf(path, sizeof path, "%s/in", work);
    EXPECT(gb_cfg_load(path, &c, &e) == 0 && !c, "a non-ELF file gives a CFG");
    snprintf(path, sizeof path, "%s/missing", work);
    EXPECT(gb_cfg_load(path, &c, &e) == -1, "a missing file loads");
    snprintf(sec, sizeof sec, "%s/sec.bin", work);
    EXPECT(sh("objcopy --dump-section .gb_cfg='%s' '%s' junk", sec, cbin) == 0, "objcopy");
    uint8_t *d;
    size_t len;
    if (gb_read_file(sec, 1 << 24, &d, &len, &e) != 0 || len < 64) {
        EXPECT(0, "cannot read the section: %s", e.msg);
        return;
    }
    EXPECT(gb_cfg_parse(d, len, &c, &e) == 0 && c, "the real section does not parse: %s", e.msg);
    gb_cfg_free(c);
    EXPECT(gb_cfg_parse(d, len - 4, &c, &e) == -1, "a truncated section parses");
    for (uint8_t v = 1; v <= 4; v += 3) { /* the versions before and after those read */
        d[4] = v;
        EXPECT(gb_cfg_parse(d, len, &c, &e) == -1 && strstr(e.msg, "version") &&
                   strstr(e.msg, "rebuild the target"),
               "version %u parses (%s)", v, e.msg);
    }
    d[4] = GBCFG_VERSION;
    d[0] ^= 1;
    EXPECT(gb_cfg_parse(d, len, &c, &e) == -1, "a bad magic parses");
    d[0] ^= 1;
    /* Random corruption: rejected or parsed, never a crash, and whatever
     * parses can be asked. */
    static uint8_t v[GB_MAP_SIZE];
    srand(1);
    for (int it = 0; it < 3000; it++) {
        size_t at = (size_t)rand() % len;
        uint8_t old = d[at];
        d[at] = (uint8_t)(it & 1 ? (unsigned)rand() : old ^ (1u << (rand() % 8)));
        if (gb_cfg_parse(d, len, &c, &e) == 0) {
            for (uint32_t s = 0; s < 64; s++)
                gb_cfg_flip_may_reach(c, (unsigned)(s & 2), (uint32_t)rand(), s & 1, v, 0);
            gb_cfg_free(c);
        }
        d[at] = old;
    }
    gb_free(d);
}

/* Source lines (version 3): the call `leaf(d[3]);` (progs/cfgprog.c line
 * 36) has a block in LLVMFuzzerTestOneInput at -O0 and -O2; a comment
 * line has none but its file matches; a file name matches only by whole
 * path components. */
static void test_lines(const char *cbin)
{
    gb_cfg_t *c = NULL;
    gb_err_t e;
    if (gb_cfg_load(cbin, &c, &e) != 0 || !c) {
        EXPECT(0, "%s: no CFG", cbin);
        return;
    }
    uint32_t *b = NULL;
    size_t n = 0;
    gb_cfg_where_t w;
    EXPECT(gb_cfg_line_blocks(c, "cfgprog.c", 36, &b, &n, &w) == 0 && n >= 1 &&
               w.line_modules == 1 && w.files == 1,
           "%s: line 36 has %zu blocks, %zu files", cbin, n, w.files);
    for (size_t i = 0; i < n; i++) {
        uint32_t len;
        const char *f = gb_cfg_block_func(c, b[i], &len);
        EXPECT(len == 22 && memcmp(f, "LLVMFuzzerTestOneInput", 22) == 0, "%s: line 36 in %.*s",
               cbin, (int)len, f);
    }
    gb_free(b);
    EXPECT(gb_cfg_line_blocks(c, "generational/progs/cfgprog.c", 36, &b, &n, &w) == 0 && n >= 1,
           "%s: a longer tail does not match", cbin);
    gb_free(b);
    EXPECT(gb_cfg_line_blocks(c, "fgprog.c", 36, &b, &n, &w) == 0 && n == 0 && w.files == 0,
           "%s: part of a base name matches", cbin);
    gb_free(b);
    EXPECT(gb_cfg_line_blocks(c, "cfgprog.c", 2, &b, &n, &w) == 0 && n == 0 && w.files == 1 &&
               w.before == 0 && w.after > 2,
           "%s: a comment line has %zu blocks (next line %u)", cbin, n, w.after);
    gb_free(b);
    gb_cfg_free(c);
}

/* --ids A B [A B ...]: block ids are unique within a module
 * (docs/trace-format.md, "Ids"), and each pair of builds lists the same
 * ones: a program's trace and cov builds, or one file compiled from two
 * directories. */
static int test_ids(int argc, char **argv)
{
    if (argc < 2 || argc % 2) {
        fprintf(stderr, "usage: test_cfg --ids A B [A B ...]\n");
        return 2;
    }
    for (int a = 0; a + 1 < argc; a += 2) {
        gb_cfg_t *t = load(argv[a]), *c = load(argv[a + 1]);
        gb_cfg_info_t ti, ci;
        gb_cfg_get_info(t, &ti);
        gb_cfg_get_info(c, &ci);
        size_t distinct = 0, differ = 0;
        for (uint32_t id = 0; id < GB_MAP_SIZE; id++) {
            int in_t = gb_cfg_has_block(t, id), in_c = gb_cfg_has_block(c, id);
            distinct += (size_t)in_t;
            differ += (size_t)(in_t != in_c);
        }
        EXPECT(distinct == ti.blocks && ti.blocks == ci.blocks && differ == 0,
               "%s: %zu blocks (%s: %zu) under %zu distinct ids, %zu ids in one build only",
               argv[a], ti.blocks, argv[a + 1], ci.blocks, distinct, differ);
        printf("%s and %s: %zu blocks, %zu distinct ids, %zu ids in one only\n", argv[a],
               argv[a + 1], ti.blocks, distinct, differ);
        gb_cfg_free(t);
        gb_cfg_free(c);
    }
    return fails != 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--ids") == 0)
        return test_ids(argc - 2, argv + 2);
    if (argc != 10) {
        fprintf(stderr, "usage: test_cfg O0-TRACE O0-COV O2-TRACE O2-COV DISP-O0-TRACE "
                        "DISP-O0-COV DISP-O2-TRACE DISP-O2-COV WORKDIR\n");
        return 2;
    }
    work = argv[9];
    test_reach(argv[1], argv[2]);
    test_sites(argv[1], argv[2], prog_in, 5);
    test_sites(argv[3], argv[4], prog_in, 5);
    test_disp(argv[5], argv[6]);
    test_sites(argv[5], argv[6], disp_in, 8);
    test_sites(argv[7], argv[8], disp_in, 8);
    test_bad(argv[2]);
    test_lines(argv[2]);
    test_lines(argv[4]);
    test_handmade();
    if (fails)
        return fprintf(stderr, "test_cfg: %d failures\n", fails), 1;
    printf("test_cfg: ok\n");
    return 0;
}
