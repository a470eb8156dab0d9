/* SPDX-License-Identifier: Apache-2.0 */
/* Status views rendered from fuzzer_stats files only (as AFL does): an
 * AFL-style screen on a terminal, one plain line per update otherwise. */
#ifndef GB_CLI_STATUS_H
#define GB_CLI_STATUS_H

#include <stdio.h>

typedef struct gb_statview {
    FILE *out;
    int screen; /* redraw a full screen (a terminal, TERM not dumb) */
    int color;  /* ANSI colors (a terminal, NO_COLOR unset) */
    const char *note; /* printed under the sync table, or NULL */
} gb_statview_t;

/* Decides screen/color from isatty(out), TERM and NO_COLOR. */
void gb_status_init(gb_statview_t *v, FILE *out);

/* One instance: renders CAMPAIGN_DIR/fuzzer_stats. */
void gb_status_show(gb_statview_t *v, const char *campaign_dir, int final);

/* Every instance of a sync dir (AFL++ and Glassbox), like afl-whatsup. */
void gb_status_show_sync(gb_statview_t *v, const char *sync_dir, int final);

#endif
