/* SPDX-License-Identifier: Apache-2.0 */
/* The campaign's pulse: between two steps of the search, read the peers
 * (every GB_SYNC_EVERY_MS), rewrite fuzzer_stats and plot_data and call the
 * status view (every status_every_ms), and share learned clauses and
 * answers with the other workers (every GB_SOLVER_SYNC_MS). */
#include <stdio.h>

#include "search_int.h"

int gb_pulse_sync(gb_search_t *s, gb_err_t *e)
{
    s->pulse.last_sync_ms = gb_time_ms();
    return gb_peers_sync(s->peers, gb_run_import, s, e);
}

void gb_pulse(gb_search_t *s)
{
    uint64_t now = gb_time_ms();
    if (now - s->pulse.last_sync_ms >= GB_SYNC_EVERY_MS) {
        gb_err_t se;
        if (gb_pulse_sync(s, &se) != 0)
            s->pulse.sync_failed = 1; /* reported by gb_search_run */
    }
    if (now - s->pulse.last_status_ms < s->o.status_every_ms)
        return;
    s->pulse.last_status_ms = now;
    gb_pulse_share(s, GB_SHARE_EVERY);
    if (gb_report_write(s, NULL) == 0 && s->o.on_status) /* a failed write is retried */
        s->o.on_status(gb_campaign_dir(s->camp), 0, s->o.status_ctx);
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
