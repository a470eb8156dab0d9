/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the worklist order (score, hint, novelty, frontier, shorter,
 * newer), its bound (trim), a child's lineage and name, waiting inputs
 * parked in queue/, and the hash sets the search uses to never run an input twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "search_int.h"

static gb_item_t *item(uint32_t score, size_t len, uint64_t seq)
{
    uint8_t buf[64] = {0};
    gb_item_t *it = gb_item_new(buf, len, seq);
    it->score = score;
    return it;
}

static void test_order(void)
{
    gb_worklist_t w = {0};
    /* (score, len, seq) pushed in a scrambled order */
    CHECK(gb_worklist_push(&w, item(0, 10, 1)) == 0);
    CHECK(gb_worklist_push(&w, item(5, 20, 2)) == 0);
    CHECK(gb_worklist_push(&w, item(5, 8, 3)) == 0);
    CHECK(gb_worklist_push(&w, item(0, 10, 4)) == 0);
    CHECK(gb_worklist_push(&w, item(9, 30, 5)) == 0);
    CHECK(gb_worklist_push(&w, item(0, 4, 6)) == 0);
    const uint64_t want[] = {5, 3, 2, 6, 4, 1};
    for (size_t i = 0; i < 6; i++) {
        gb_item_t *it = gb_worklist_pop(&w);
        CHECK(it && it->seq == want[i]);
        gb_item_free(it);
    }
    CHECK(gb_worklist_pop(&w) == NULL);
    gb_worklist_free(&w);
}

/* Among equal scores the hint orders (progress no block shows), before
 * novelty and length; peek shows what pop will return. */
static void test_hint(void)
{
    gb_worklist_t w = {0};
    gb_item_t *a = item(0, 4, 1), *b = item(0, 40, 2), *c = item(0, 10, 3), *d = item(1, 50, 4);
    a->novelty = 3;
    b->hint = GB_HINT_NEW_DIR;
    c->hint = GB_HINT_PARENT;
    CHECK(gb_worklist_peek(&w) == NULL);
    CHECK(gb_worklist_push(&w, a) == 0 && gb_worklist_push(&w, b) == 0);
    CHECK(gb_worklist_push(&w, c) == 0 && gb_worklist_push(&w, d) == 0);
    const uint64_t want[] = {4, 2, 3, 1}; /* score first, then hint 2, hint 1, novelty */
    for (size_t i = 0; i < 4; i++) {
        const gb_item_t *top = gb_worklist_peek(&w);
        gb_item_t *it = gb_worklist_pop(&w);
        CHECK(it && it == top && it->seq == want[i]);
        gb_item_free(it);
    }
    gb_worklist_free(&w);
}

static void test_many(void)
{
    gb_worklist_t w = {0};
    srand(7);
    for (uint64_t i = 0; i < 5000; i++)
        CHECK(gb_worklist_push(&w, item((uint32_t)(rand() % 50), 1 + (size_t)(rand() % 60), i)) == 0);
    uint32_t last = UINT32_MAX;
    for (size_t i = 0; i < 5000; i++) {
        gb_item_t *it = gb_worklist_pop(&w);
        CHECK(it && it->score <= last);
        last = it ? it->score : 0;
        gb_item_free(it);
    }
    gb_worklist_free(&w);
}

static void test_hset(void)
{
    gb_hset_t h = {0};
    for (uint64_t k = 0; k < 10000; k++)
        CHECK(gb_hset_add(&h, k * 0x9e3779b97f4a7c15ull) == 1);
    for (uint64_t k = 0; k < 10000; k++)
        CHECK(gb_hset_add(&h, k * 0x9e3779b97f4a7c15ull) == 0);
    CHECK(h.n == 10000);
    gb_alloc_fail_after(0);
    gb_hset_t g = {0};
    CHECK(gb_hset_add(&g, 42) == -1); /* no memory: reported, not a crash */
    gb_alloc_fail_after(-1);
    gb_hset_free(&h);
    gb_hset_free(&g);
}

static void test_item_copy(void)
{
    uint8_t data[5] = {1, 2, 3, 4, 5};
    gb_item_t *it = gb_item_new(data, 5, 9);
    data[0] = 99;
    CHECK(it->data[0] == 1 && it->len == 5 && it->seq == 9);
    CHECK(it->queue_id == -1 && it->crash_id == -1 && it->src_id == -1);
    gb_item_free(it);
}

/* A child's lineage and name: the nearest stored ancestor is the parent
 * when stored in queue/, else the parent's own ancestor; a crashing seed
 * shows as src:crashNNNNNN only when no queue ancestor is behind it. */
static void test_lineage(void)
{
    uint8_t b[4] = {0};
    char d[160];
    gb_item_t *seed = gb_item_new(b, 4, 1), *c = gb_item_new(b, 4, 2), *g = gb_item_new(b, 4, 3);
    gb_item_desc(d, sizeof d, seed, "gen", 7, "");
    CHECK_MSG(strcmp(d, "op:gen,pos:7") == 0, "%s", d); /* nothing stored */
    seed->queue_id = 12;
    gb_item_adopt(c, seed);
    CHECK(c->src_id == 12 && c->src_crash == -1 && c->depth == 2);
    gb_item_desc(d, sizeof d, seed, "token", 3, ",rep:4");
    CHECK_MSG(strcmp(d, "src:000012,op:token,pos:3,rep:4") == 0, "%s", d);
    gb_item_adopt(g, c); /* c is not stored: its ancestor goes on */
    CHECK(g->src_id == 12 && g->src_crash == -1 && g->depth == 3);
    gb_item_desc(d, sizeof d, c, "gen", 0, ",opt");
    CHECK_MSG(strcmp(d, "src:000012,op:gen,pos:0,opt") == 0, "%s", d);
    seed->queue_id = -1; /* a crashing seed: only in crashes/ */
    seed->crash_id = 5;
    gb_item_adopt(c, seed);
    CHECK(c->src_id == -1 && c->src_crash == 5);
    gb_item_desc(d, sizeof d, seed, "token", 1, "");
    CHECK_MSG(strcmp(d, "src:crash000005,op:token,pos:1") == 0, "%s", d);
    gb_item_desc(d, sizeof d, c, "gen", 2, "");
    CHECK_MSG(strcmp(d, "src:crash000005,op:gen,pos:2") == 0, "%s", d);
    gb_src_desc(d, sizeof d, 3, 5, "gen", 1, ""); /* a queue ancestor wins */
    CHECK_MSG(strcmp(d, "src:000003,op:gen,pos:1") == 0, "%s", d);
    gb_item_free(seed);
    gb_item_free(c);
    gb_item_free(g);
}

/* The frontier orders inputs equal on score, hint and novelty, before
 * length: an input with uncovered directions beside its path first. */
static void test_frontier(void)
{
    gb_worklist_t w = {0};
    gb_item_t *a = item(0, 4, 1), *b = item(0, 40, 2), *c = item(0, 10, 3), *d = item(0, 10, 4);
    b->nfront = 2;
    c->nfront = 1;
    d->novelty = 1; /* novelty before frontier */
    CHECK(gb_worklist_push(&w, a) == 0 && gb_worklist_push(&w, b) == 0);
    CHECK(gb_worklist_push(&w, c) == 0 && gb_worklist_push(&w, d) == 0);
    CHECK(gb_worklist_before(b, a) && !gb_worklist_before(a, b));
    const uint64_t want[] = {4, 2, 3, 1};
    for (size_t i = 0; i < 4; i++) {
        gb_item_t *it = gb_worklist_pop(&w);
        CHECK(it && it->seq == want[i]);
        gb_item_free(it);
    }
    gb_worklist_free(&w);
}

/* trim keeps the best `max` inputs, drops the rest, and the heap still pops
 * in order; trimming to more than it holds does nothing. */
static void test_trim(void)
{
    gb_worklist_t w = {0};
    /* scores 0..99 in a scrambled order (37 is prime to 100) */
    for (uint64_t i = 0; i < 100; i++)
        CHECK(gb_worklist_push(&w, item((uint32_t)(i * 37 % 100), 8, i)) == 0);
    CHECK(gb_worklist_trim(&w, 200) == 0 && w.n == 100);
    CHECK(gb_worklist_trim(&w, 30) == 70 && w.n == 30);
    for (uint32_t want = 99; want >= 70; want--) {
        gb_item_t *it = gb_worklist_pop(&w);
        CHECK(it && it->score == want);
        gb_item_free(it);
    }
    CHECK(gb_worklist_pop(&w) == NULL);
    CHECK(gb_worklist_push(&w, item(1, 8, 1)) == 0);
    CHECK(gb_worklist_trim(&w, 0) == 1 && w.n == 0 && gb_worklist_pop(&w) == NULL);
    gb_worklist_free(&w);
}

/* A stored input waits without its bytes and gets them back from queue/
 * when it is to be expanded; an input without a file keeps its bytes; a
 * file gone or rewritten loses the input, never runs other bytes. */
static void test_park(void)
{
    char dir[] = "/tmp/gb_park_XXXXXX", path[256], cmd[300];
    CHECK(mkdtemp(dir) != NULL);
    static gb_search_t s; /* only its campaign is used */
    gb_err_t e;
    CHECK_MSG(gb_campaign_open(dir, "w", &s.camp, &e) == 0, "%s", e.msg);
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    CHECK(gb_campaign_add_queue(s.camp, data, sizeof data, "orig:x", NULL, &e) == 0);
    gb_item_t *it = gb_item_new(data, sizeof data, 1), *plain = item(0, 8, 2);
    it->file = gb_strdup(gb_campaign_last_queue_name(s.camp));
    CHECK(it->file && strcmp(it->file, "id:000000,orig:x") == 0);
    size_t held = gb_item_bytes(it);
    gb_worklist_t w = {0};
    CHECK(gb_worklist_push(&w, it) == 0 && gb_worklist_push(&w, plain) == 0);
    CHECK(it->data == NULL && plain->data != NULL);
    CHECK(gb_item_bytes(it) + sizeof data <= held + strlen(it->file) + 1);
    CHECK(gb_worklist_pop(&w) == plain && gb_item_unpark(&s, plain) == 0 && plain->data);
    CHECK(gb_worklist_pop(&w) == it && gb_item_unpark(&s, it) == 0);
    CHECK(it->data && it->len == sizeof data && memcmp(it->data, data, sizeof data) == 0);
    gb_item_park(it); /* as the retry list does */
    CHECK(it->data == NULL);
    snprintf(path, sizeof path, "%s/w/queue/%s", dir, it->file);
    data[100] ^= 1; /* rewritten, same length */
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, sizeof data, f) == sizeof data && fclose(f) == 0);
    CHECK(gb_item_unpark(&s, it) == 1 && it->data == NULL);
    CHECK(unlink(path) == 0); /* gone */
    CHECK(gb_item_unpark(&s, it) == 1 && it->data == NULL);
    gb_item_free(it);
    gb_item_free(plain);
    gb_worklist_free(&w);
    char *named = gb_search_file(&s, ".cur_input"), want[300]; /* made once, exact length */
    snprintf(want, sizeof want, "%s/w/.cur_input", dir);
    CHECK(named && strcmp(named, want) == 0);
    gb_free(named);
    gb_campaign_close(s.camp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* The seen-sets (run.c): an input runs once; in directed mode an extra
 * input (outside the proof) is new only if no input of either kind ran,
 * and an exact input equal to an extra one still runs (it counts for the
 * proof). */
static void test_run_fresh(void)
{
    gb_run_state_t r = {0};
    const uint8_t a[] = "a", b[] = "b";
    CHECK(gb_run_fresh(&r, a, 1, 0) == 1 && gb_run_fresh(&r, a, 1, 0) == 0);
    CHECK(gb_run_fresh(&r, a, 1, 1) == 0); /* an extra child equal to an exact input */
    CHECK(gb_run_fresh(&r, b, 1, 1) == 1 && gb_run_fresh(&r, b, 1, 1) == 0);
    CHECK(gb_run_fresh(&r, b, 1, 0) == 1 && gb_run_fresh(&r, b, 1, 0) == 0);
    gb_run_free(&r);
}

int main(void)
{
    test_park();
    test_frontier();
    test_trim();
    test_order();
    test_hint();
    test_many();
    test_hset();
    test_item_copy();
    test_lineage();
    test_run_fresh();
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
