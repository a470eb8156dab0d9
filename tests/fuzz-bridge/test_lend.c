/* SPDX-License-Identifier: Apache-2.0 */
/* Core lending (lend.c): the turns a worker and its lent afl-fuzz take,
 * on a clock passed in (the worker keeps the core while it finds; a lent
 * turn doubles after each worker turn without a find, up to the cap, and
 * comes back to its first length after one with a find; it ends early
 * when AFL++ finds nothing; a count that goes down is no find), AFL++'s
 * own finds counted from queue/ and crashes/ names (seeds and peers'
 * inputs left out, a symlinked queue refused) and a worker's from its
 * fuzzer_stats (a symlinked one refused). Usage: test_lend WORKDIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"

/* Steps the policy every 5 s from `*now` until the core changes hands
 * (or `max` seconds pass); returns how long that took. */
static time_t until_switch(gb_lend_t *l, time_t *now, uint64_t wf, uint64_t af, time_t max)
{
    time_t t0 = *now;
    while (*now - t0 < max) {
        *now += 5;
        if (gb_lend_step(l, *now, wf, af))
            return *now - t0;
    }
    return -1;
}

static void test_turns(void)
{
    gb_lend_t l;
    time_t now = 1000;
    gb_lend_init(&l, 60, 300, 1800, now, 10, 50);
    CHECK(l.side == GB_LEND_WORKER);

    /* The worker finds at 40 s: its turn goes on until 60 s after that. */
    CHECK(gb_lend_step(&l, now + 40, 11, 50) == 0);
    now += 40;
    time_t d = until_switch(&l, &now, 11, 50, 600);
    CHECK_MSG(d == 60, "worker turn ended after %lld s", (long long)d);
    CHECK(l.side == GB_LEND_AFL && l.slice_s == 300 && l.turns == 1);

    /* AFL++ keeps finding (one more every step): the turn runs its length. */
    uint64_t af = 50;
    time_t t0 = now;
    while (!gb_lend_step(&l, now += 5, 11, ++af) && now - t0 < 1000) {
    }
    CHECK_MSG(now - t0 == 300, "lent turn ended after %lld s", (long long)(now - t0));
    CHECK(l.side == GB_LEND_WORKER);

    /* A worker turn without a find: 60 s, then a turn twice as long. */
    d = until_switch(&l, &now, 11, af, 600);
    CHECK_MSG(d == 60, "idle worker turn lasted %lld s", (long long)d);
    CHECK_MSG(l.slice_s == 600, "slice %u after a turn without a find", l.slice_s);

    /* AFL++ finds nothing for 60 s: its turn ends early, with a reason
     * the caller can tell from the length. */
    d = until_switch(&l, &now, 11, af, 1000);
    CHECK_MSG(d == 60, "stuck AFL++ kept the core %lld s", (long long)d);
    CHECK(l.side == GB_LEND_WORKER);

    /* Doubling stops at the cap. */
    unsigned want[] = {1200, 1800, 1800};
    for (int i = 0; i < 3; i++) {
        until_switch(&l, &now, 11, af, 600); /* worker: nothing */
        CHECK_MSG(l.side == GB_LEND_AFL && l.slice_s == want[i], "turn %d: slice %u, want %u", i,
                  l.slice_s, want[i]);
        until_switch(&l, &now, 11, af, 4000); /* AFL++: stuck, back */
    }

    /* A find in the worker's turn brings the first length back. */
    CHECK(gb_lend_step(&l, now += 5, 12, af) == 0 && l.found);
    until_switch(&l, &now, 12, af, 600);
    CHECK_MSG(l.side == GB_LEND_AFL && l.slice_s == 300, "slice %u after a find", l.slice_s);

    /* A count that went down (a restarted instance) is no find, and the
     * lower count is the new baseline. */
    until_switch(&l, &now, 12, af, 4000);
    CHECK(l.side == GB_LEND_WORKER);
    CHECK(gb_lend_step(&l, now += 5, 3, af) == 0 && !l.found);
    CHECK(gb_lend_step(&l, now += 5, 4, af) == 0 && l.found);
}

static void touch(const char *dir, const char *name)
{
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    CHECK_MSG(check_write_file(p, "x", 1) == 0, "%s", p);
}

static void test_count(const char *root)
{
    char sync[1024], q[1100], c[1100], cmd[8192];
    snprintf(sync, sizeof sync, "%s/lend-sync", root);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", sync);
    CHECK(system(cmd) == 0);
    snprintf(q, sizeof q, "%s/main/queue", sync);
    snprintf(c, sizeof c, "%s/main/crashes", sync);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s' '%s/glassbox/queue' '%s/outside'", q, c, sync,
             sync);
    CHECK(system(cmd) == 0);

    CHECK(gb_lend_afl_finds(sync, "nobody") == -1);
    touch(q, "id:000000,time:0,execs:0,orig:seed");
    touch(q, "id:000001,src:000000,time:10,execs:99,op:havoc,rep:2,+cov");
    touch(q, "id:000002,sync:glassbox,src:000004");
    touch(q, "id:000003,src:000001+000000,time:20,execs:300,op:splice,rep:8");
    touch(q, ".state");
    touch(c, "id:000000,sig:06,src:000003,time:30,execs:400,op:havoc,rep:2");
    touch(c, "README.txt");
    CHECK_MSG(gb_lend_afl_finds(sync, "main") == 3, "main: %ld", gb_lend_afl_finds(sync, "main"));

    snprintf(q, sizeof q, "%s/glassbox/queue", sync);
    touch(q, "id:000001,src:000000,op:gen,pos:3");
    CHECK(gb_lend_afl_finds(sync, "glassbox") == 1); /* no crashes/: queue only */

    /* A worker's finds come from its fuzzer_stats, not its queue (which
     * keeps every child): own_finds. Its saved_crashes (distinct block
     * sets, thousands an hour on Magma's libxml2) is no find. */
    CHECK(gb_lend_worker_finds(sync, "glassbox") == -1); /* none yet */
    snprintf(q, sizeof q, "%s/glassbox/fuzzer_stats", sync);
    const char *st = "start_time        : 1\nsaved_crashes     : 2\nown_finds         : 5\n";
    CHECK(check_write_file(q, st, strlen(st)) == 0);
    CHECK_MSG(gb_lend_worker_finds(sync, "glassbox") == 5, "worker: %ld",
              gb_lend_worker_finds(sync, "glassbox"));
    st = "own_finds         : 5\n"; /* not a worker's whole file */
    CHECK(check_write_file(q, st, strlen(st)) == 0);
    CHECK(gb_lend_worker_finds(sync, "glassbox") == -1);

    /* A queue that is a symlink (to finds elsewhere) is not read. */
    snprintf(c, sizeof c, "%s/outside", sync);
    touch(c, "id:000001,src:000000,op:havoc");
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/planted' && ln -s '%s' '%s/planted/queue'", sync, c,
             sync);
    CHECK(system(cmd) == 0);
    CHECK(gb_lend_afl_finds(sync, "planted") == -1);
    /* and neither is a symlinked fuzzer_stats */
    snprintf(cmd, sizeof cmd,
             "printf 'own_finds : 9\\nsaved_crashes : 0\\n' >'%s/outside/stats' && "
             "ln -s '%s/outside/stats' '%s/planted/fuzzer_stats'",
             sync, sync, sync);
    CHECK(system(cmd) == 0);
    CHECK(gb_lend_worker_finds(sync, "planted") == -1);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: test_lend WORKDIR\n"), 2;
    mkdir(argv[1], 0755);
    test_turns();
    test_count(argv[1]);
    return check_exit("test_lend");
}
