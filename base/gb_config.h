/* SPDX-License-Identifier: Apache-2.0 */
/* Glassbox's tunables, each defined once and each with why it has its
 * value (AFL's config.h): the defaults of the libraries and the glassbox
 * command, the search's intervals and limits, the largest input. Nothing
 * but #defines, so any file may include it, the target runtime too; plain
 * numbers, so help text can quote them (cli/opts.h, GB_OPT_XSTR). The
 * block id space is not a tunable but part of the targets' ABI:
 * GB_MAP_SIZE in tracer/gb_abi.h. */
#ifndef GB_CONFIG_H
#define GB_CONFIG_H

/* ---- Running targets ---------------------------------------------------- */

/* Time limit per run of the cov build (fuzz and campaign -t; 0 in
 * gb_search_opts_t and gb_fsrv_opts_t). AFL++'s default too, so afl-fuzz
 * and Glassbox in one campaign call the same inputs hangs; a harness run
 * takes well under a millisecond, so only real hangs reach it. */
#define GB_RUN_TIMEOUT_MS 1000

/* Time limit per run of the trace build: GB_TRACE_TIMEOUT_FACTOR times the
 * run limit, at least GB_TRACE_TIMEOUT_MIN_MS. Tracing makes a run tens of
 * times slower (bench/RESULTS.md), so the cov limit would cut most traces
 * short; ten times lets typical inputs finish, and a trace cut off still
 * leaves a usable prefix. The floor covers what every traced run pays
 * however short it is: loading the runtime and writing the trace. */
#define GB_TRACE_TIMEOUT_FACTOR 10
#define GB_TRACE_TIMEOUT_MIN_MS 5000
#define GB_TRACE_TIMEOUT_MS(run_ms)                                                                \
    (GB_TRACE_TIMEOUT_FACTOR * (run_ms) > GB_TRACE_TIMEOUT_MIN_MS                                  \
         ? GB_TRACE_TIMEOUT_FACTOR * (run_ms)                                                      \
         : GB_TRACE_TIMEOUT_MIN_MS)

/* Address-space limit per run of the cov build in MB (fuzz -m; the
 * library's default is none). Enough for real parsers, and an unbounded
 * allocation becomes a saved crash before it takes the machine. */
#define GB_MEM_LIMIT_MB 2048

/* The trace build gets this many times the cov build's memory limit: its
 * shadow memory and expression arena come on top of the program's own. */
#define GB_TRACE_MEM_FACTOR 4

/* ---- Solving ------------------------------------------------------------ */

/* Z3's time limit per query (--solver-timeout; 0 in gb_solver_opts_t).
 * Most flips are answered in milliseconds; 2 s still lets through the hard
 * ones a checksum or table makes, and a site that keeps timing out gets
 * half as much per timeout in a row (docs/clauses.md). */
#define GB_SOLVER_TIMEOUT_MS 2000

/* Z3 time per expanded input (fuzz --solver-budget, solve --budget; 0 in
 * gb_solver_opts_t): about fifteen timeouts at the default limit. After it
 * only sites where Z3 once found a model are solved, so one trace full of
 * hard queries cannot hold up the campaign for long. */
#define GB_SOLVER_BUDGET_MS 30000

/* ---- The search's periodic work ----------------------------------------- */

/* fuzzer_stats, plot_data and the status line are rewritten this often:
 * fresh for a person watching, and two small files cost nothing. The
 * campaign's combined status uses the same period. */
#define GB_STATUS_EVERY_MS 2000

/* Peers' queues (and a libFuzzer corpus) are read this often: a directory
 * scan per peer is cheap, and others' finds help most while they are new
 * (AFL++ itself syncs far less often, which is why campaign sets
 * AFL_SYNC_TIME). */
#define GB_SYNC_EVERY_MS 5000

/* Learned clauses and cached answers are saved and the peers' re-read at
 * most this often: the files are rewritten whole, and clauses pay off over
 * minutes, not seconds. */
#define GB_SOLVER_SYNC_MS 30000

/* While the disk is full, writes are retried this often (in seconds):
 * space comes back when a person frees it, so there is no hurry. */
#define GB_DISK_RETRY_S 2

/* ---- The search --------------------------------------------------------- */

/* Rounds of repairing one optimistic child (each round re-traces it and
 * fixes the entry where it left its predicted path, one broken checksum
 * at a time). Each round costs a trace run and a query, and few paths
 * cross more checksums; a child still broken is kept like any other, and
 * its lowered bound lets the next generation try again. */
#define GB_MAX_REPAIRS 4

/* Unpaid children of one (site, direction) before it is backed off (then
 * tried only at power-of-two counts): enough to give a site a fair chance
 * while loops that repeat one branch stop costing a query per iteration. */
#define GB_SITE_FREE_TRIES 8

/* ---- Inputs ------------------------------------------------------------- */

/* The largest input read, stored or made (seeds, peers, models): AFL++
 * ignores larger files when syncing (MAX_FILE), so larger ones could not
 * be shared, and the solver's length preferences end here. */
#define GB_MAX_INPUT (1u << 20)

/* ---- Corpus minimisation (glassbox cmin) ------------------------------- */

/* cmin's progress line is redrawn at most this often: a few times a second
 * is live enough, and 100,000 runs must not mean 100,000 writes to the
 * terminal. */
#define GB_CMIN_PROGRESS_MS 250

/* cmin -T: at most this many forkservers side by side. Each holds a 9 MiB
 * shm segment and a thread; more than the machine's cores only adds
 * context switches, and no machine we run on has more. */
#define GB_CMIN_MAX_JOBS 256

/* ---- The trace runtime (tracer/rt/state.c; each has a GLASSBOX_* override,
 * docs/tracer.md) ------------------------------------------------------- */

/* Path-constraint entries one trace records: a parser's loop over a large
 * input otherwise writes millions, far more than one expansion can flip. */
#define GB_RT_MAX_PCS 100000

/* Expression depth past which a result becomes concrete: the solver, the
 * SMT-LIB printer and the trace reader walk expressions recursively, so a
 * deep chain (an accumulating checksum) would cost stack and time for a
 * term no query could use. GB_RT_MAX_DEPTH_CAP bounds the override: deeper
 * walks would overflow the 8 MiB default stack. */
#define GB_RT_MAX_DEPTH 1000
#define GB_RT_MAX_DEPTH_CAP 60000

/* Expression nodes one trace builds before the rest become concrete: at 32
 * bytes a node, 20 Mi nodes are 640 MiB of arena, within the trace build's
 * memory limit (GB_MEM_LIMIT_MB x GB_TRACE_MEM_FACTOR). */
#define GB_RT_MAX_NODES (20u << 20)

/* Hits of one (site, calling context) recorded before back-off (then only
 * power-of-two hit counts): QSYM's scheme, so a hot loop's branch costs a
 * few entries instead of one per iteration. */
#define GB_RT_BACKOFF_FREE 16

#endif
