/* SPDX-License-Identifier: Apache-2.0 */
/* Live triage for fuzz and campaign (--triage ASAN_BIN): a child process
 * buckets the sync dir's crashes into SYNC/triage/ as they arrive, AFL++'s
 * and libFuzzer's included, with the triage library (docs/triage.md). */
#ifndef GB_CLI_LIVE_H
#define GB_CLI_LIVE_H

#include <stddef.h>
#include <sys/types.h>

#include "gb_base.h"

typedef struct gb_live {
    pid_t pid;        /* the triage process, 0 = none */
    char report[4200]; /* SYNC/triage */
} gb_live_t;

/* Checks ASAN_BIN and starts the triage process on SYNC (every
 * SYNC/x/crashes and SYNC/libfuzzer-crashes). args/nargs: the target's
 * arguments, "@@" = the input. */
int gb_live_start(gb_live_t *lt, const char *sync_dir, const char *asan_bin, char *const *args,
                  size_t nargs, unsigned timeout_ms, gb_err_t *e);

/* Asks for a last pass and waits up to GB_LIVE_TRIAGE_GRACE_S for it. */
void gb_live_stop(gb_live_t *lt);

/* The number of buckets in REPORT_DIR, -1 when there is no report yet. */
long gb_live_buckets(const char *report_dir);

#endif
