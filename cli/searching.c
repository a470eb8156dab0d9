/* SPDX-License-Identifier: Apache-2.0 */
/* One search at a time runs in a glassbox process: the signal handler
 * reaches it through `running`. */
#include <signal.h>
#include <stddef.h>

#include "searching.h"

static gb_search_t *volatile running;

static void on_stop(int sig)
{
    (void)sig;
    gb_search_t *s = running;
    if (s)
        gb_search_stop(s);
}

int gb_cli_search(gb_search_t *s, gb_seed_t *seeds, size_t nseeds, gb_err_t *e)
{
    running = s;
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    signal(SIGPIPE, SIG_IGN);
    int rc = 0;
    for (size_t i = 0; i < nseeds && rc == 0; i++)
        rc = gb_search_add_seed(s, seeds[i].data, seeds[i].len, seeds[i].name, e);
    gb_seeds_free(seeds, nseeds);
    if (rc == 0)
        rc = gb_search_run(s, e);
    running = NULL;
    return rc;
}
