/* SPDX-License-Identifier: Apache-2.0 */
/* The campaign's pulse: between two steps of the search, wait while the
 * pause file exists (core lending), read the peers (every
 * GB_SYNC_EVERY_MS), rewrite fuzzer_stats and plot_data and call the
 * status view (every status_every_ms), and share learned clauses and
 * answers with the other workers (every GB_SOLVER_SYNC_MS). */
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "search_int.h"

int gb_pulse_sync(gb_search_t *s, gb_err_t *e)
{
    s->pulse.last_sync_ms = gb_time_ms();
    return gb_peers_sync(s->peers, gb_run_import, s, e);
}

/* fuzzer_stats and the status view, every status_every_ms. */
static void pulse_status(gb_search_t *s, uint64_t now)
{
    if (now - s->pulse.last_status_ms < s->o.status_every_ms)
        return;
    s->pulse.last_status_ms = now;
    if (gb_report_write(s, NULL) == 0 && s->o.on_status) /* a failed write is retried */
        s->o.on_status(gb_campaign_dir(s->camp), 0, s->o.status_ctx);
}

/* --pause-file: while it exists (looked for every GB_LEND_CHECK_MS, by
 * lstat: a link counts as there, nothing is read through it), the search
 * waits here, between two steps, and keeps fuzzer_stats fresh. A stop
 * request or the end of -V ends the wait. */
static void pause_while_lent(gb_search_t *s)
{
    struct stat st;
    uint64_t now = gb_time_ms();
    if (!s->o.pause_file || now - s->pulse.last_pause_ms < GB_LEND_CHECK_MS)
        return;
    s->pulse.last_pause_ms = now;
    if (gb_search_out_of_time(s) || lstat(s->o.pause_file, &st) != 0)
        return; /* at the end of -V the file can still be there: no pause */
    const char *was = s->st.state;
    s->st.state = "paused";
    s->st.pauses++;
    s->pulse.last_status_ms = 0; /* say so now */
    uint64_t t0 = now;
    while (!gb_search_out_of_time(s) && lstat(s->o.pause_file, &st) == 0) {
        pulse_status(s, gb_time_ms());
        struct timespec ts = {0, GB_LEND_CHECK_MS * 1000000L};
        nanosleep(&ts, NULL);
    }
    now = gb_time_ms();
    s->st.paused_ms += now - t0;
    s->pulse.resumed_ms = now;
    s->pulse.last_pause_ms = now;
    s->pulse.last_sync_ms = 0; /* read what the peers found meanwhile at once */
    s->st.state = was;
}

void gb_pulse(gb_search_t *s)
{
    pause_while_lent(s);
    uint64_t now = gb_time_ms();
    if (now - s->pulse.last_sync_ms >= GB_SYNC_EVERY_MS) {
        gb_err_t se;
        if (gb_pulse_sync(s, &se) != 0)
            s->pulse.sync_failed = 1; /* reported by gb_search_run */
    }
    if (now - s->pulse.last_status_ms < s->o.status_every_ms)
        return;
    gb_pulse_share(s, GB_SHARE_EVERY);
    pulse_status(s, now);
}

/* Learned clauses and cached answers (docs/clauses.md): at start, every
 * worker's clauses in the sync dir and this worker's answers; then every
 * GB_SOLVER_SYNC_MS and at the end, this worker's are saved and (not at the
 * end) the peers' read again. A bad file is skipped: sharing is best
 * effort. */
void gb_pulse_share(gb_search_t *s, gb_share_t when)
{
    uint64_t now = gb_time_ms();
    if (when == GB_SHARE_EVERY && now - s->pulse.last_solver_ms < GB_SOLVER_SYNC_MS)
        return;
    s->pulse.last_solver_ms = now;
    gb_err_t e;
    size_t n;
    char dir[4200], cache[4300];
    snprintf(dir, sizeof dir, "%s/clauses", gb_campaign_dir(s->camp));
    snprintf(cache, sizeof cache, "%s/answers.gbq", dir);
    if (when == GB_SHARE_LOAD)
        gb_solver_cache_load(s->solver, cache, &e);
    else {
        gb_solver_clauses_save(s->solver, dir, &e);
        gb_solver_cache_save(s->solver, cache, &e);
    }
    if (when != GB_SHARE_FINAL)
        gb_solver_clauses_import(s->solver, s->o.out, s->o.name, &n, &e);
}
