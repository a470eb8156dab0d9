/* SPDX-License-Identifier: Apache-2.0 */
/* Core lending (lend.c): a campaign's Glassbox worker and an extra afl-fuzz
 * instance take turns on one core. The worker runs while it finds; once
 * it made no find of its own for `idle_s` seconds of its turn, it pauses
 * and the extra afl-fuzz runs for a turn; that turn ends after its length,
 * or earlier once no AFL++ instance found anything for `idle_s` (AFL++ is
 * stuck: the worker's case). Each lent turn that follows a worker turn
 * without a find is twice as long as the one before, up to a cap; a worker
 * turn with a find brings it back to the first length. The policy here
 * only decides; the campaign (cli/cmd_campaign.c) pauses and continues the
 * processes. Included at the end of fuzz_bridge.h; callers include that. */
#ifndef GB_FB_LEND_H
#define GB_FB_LEND_H

#include <stdint.h>
#include <time.h>

typedef enum { GB_LEND_WORKER = 0, GB_LEND_AFL = 1 } gb_lend_side_t;

typedef struct gb_lend {
    unsigned idle_s;         /* a turn without a find this long ends (see above) */
    unsigned slice0_s;       /* the first lent turn's length */
    unsigned slice_max_s;    /* the longest lent turn */
    gb_lend_side_t side;     /* who has the core now */
    time_t since;            /* when the current turn began */
    time_t last_find;        /* the running side's last find (or the turn's start) */
    uint64_t wfinds, afinds; /* the counts last seen (worker's, all AFL++'s) */
    unsigned slice_s;        /* the current (or last) lent turn's length, 0 = none yet */
    int found;               /* the worker found something in its current turn */
    unsigned turns;          /* lent turns so far */
} gb_lend_t;

/* Starts with the worker's turn at `now`, with the counts as they are. */
void gb_lend_init(gb_lend_t *l, unsigned idle_s, unsigned slice0_s, unsigned slice_max_s,
                  time_t now, uint64_t wfinds, uint64_t afinds);

/* Takes the counts seen at `now` (the worker's own finds, every AFL++
 * instance's own finds; a count that went down is taken as the new
 * baseline, not as a find). Returns 1 when the core changes hands
 * (l->side says to whom), else 0. */
int gb_lend_step(gb_lend_t *l, time_t now, uint64_t wfinds, uint64_t afinds);

/* An AFL++ instance's own finds in SYNC/NAME: the id: entries of queue/
 * and crashes/ that are neither seeds (",orig:") nor taken from a peer
 * (",sync:"). The directories are opened without following a symlink
 * below SYNC. -1 when queue/ cannot be read (not there yet). */
long gb_lend_afl_finds(const char *sync, const char *name);

/* A worker's own finds: own_finds of SYNC/NAME/fuzzer_stats, children
 * with a new block, crashing or not (a worker's queue/ also keeps every
 * child its solver made, new or not, so its names do not tell; its
 * saved_crashes counts distinct block sets, which a bug most inputs reach
 * yields every second). The worker rewrites the file every status
 * period (a minute in a campaign). -1 when it cannot be read or lacks
 * own_finds or saved_crashes (then it is not a worker's whole file). */
long gb_lend_worker_finds(const char *sync, const char *name);

#endif
