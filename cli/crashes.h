/* SPDX-License-Identifier: Apache-2.0 */
/* The crashes a run leaves, counted on disk: every SYNC/NAME/crashes/ (AFL++'s
 * and Glassbox's id:* files) and SYNC/libfuzzer-crashes/ (crash-* and leak-*),
 * for the end-of-run summary and --exit-on-crash. */
#ifndef GB_CLI_CRASHES_H
#define GB_CLI_CRASHES_H

#include <limits.h>
#include <stdio.h>

#define GB_CRASH_DIRS_MAX 80

typedef struct gb_crashdir {
    char path[PATH_MAX];
    const char *glob; /* the crash files' names, for a replay command line */
    long n;           /* crash files in it */
} gb_crashdir_t;

typedef struct gb_crashes {
    gb_crashdir_t dirs[GB_CRASH_DIRS_MAX]; /* those with at least one crash */
    size_t ndirs;
    long total;
} gb_crashes_t;

/* Counts the crashes of instance NAME of SYNC_DIR, or of every instance and
 * libFuzzer's artifacts when NAME is NULL. A missing directory counts 0. */
void gb_crashes_scan(const char *sync_dir, const char *name, gb_crashes_t *c);

/* What the summary says about a run. */
typedef struct gb_crash_summary {
    const char *cmd;        /* "fuzz" or "campaign" */
    const char *where;      /* where crashes go, for "no crashes in WHERE" */
    const char *asan_bin;   /* the ASan build to replay on, or NULL for NAME.asan */
    const char *triage_dir; /* the live triage report, or NULL */
    int quiet;              /* only the count line */
} gb_crash_summary_t;

/* Prints the count, per directory, the distinct bugs live triage found
 * and how to replay them; with no crash, one line saying so. */
void gb_crashes_print(FILE *out, const gb_crash_summary_t *s, const gb_crashes_t *c);

/* The ASan build to replay on: TRIAGE_BIN when given, else NAME.asan beside
 * COV_BIN = NAME.cov when it exists (what 'glassbox build' makes), else NULL. */
const char *gb_crashes_asan_bin(const char *triage_bin, const char *cov_bin, char *buf,
                                size_t cap);

#endif
