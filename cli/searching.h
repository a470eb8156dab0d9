/* SPDX-License-Identifier: Apache-2.0 */
/* Running a generational search from a command (fuzz, reach): its seeds
 * in, SIGINT and SIGTERM turned into the search's stop request. */
#ifndef GB_CLI_SEARCHING_H
#define GB_CLI_SEARCHING_H

#include "corpus.h"
#include "generational.h"

/* Adds the seeds, frees them (the search keeps its own copies: a large
 * seed directory is not held twice while it runs) and runs `s` to its end,
 * a stop signal asking it to stop; SIGPIPE is ignored from then on. 0, or
 * -1 with `e`. */
int gb_cli_search(gb_search_t *s, gb_seed_t *seeds, size_t nseeds, gb_err_t *e);

#endif
