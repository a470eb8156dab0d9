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

/* One flip's Z3 work, every check of it (PC[j]'s neighbours, the whole
 * query's relaxation and bit-blasting rounds, its core, the last resort
 * ¬PC[j] alone), gets this many times its time limit; once spent, no
 * further check starts for it. Twice: the last resort still gets a
 * limit's worth after the whole query timed out (on lz4's seeds it
 * answers most of those). Before, a query could run 22 checks of its
 * limit in a row. */
#define GB_FLIP_BUDGET_LIMITS 2
/* ... plus this: translating the slice and making solvers count too, and
 * a check may run its grace (GB_Z3_GRACE_MS) past its limit; with short
 * limits (30 ms in tests, 50 ms after timeouts in a row) and a busy
 * machine, twice the limit alone left the last resort no time at all. */
#define GB_FLIP_BUDGET_SLACK_MS 200

/* The solver's own limits (symbolic/solver.c). Per-(site, direction)
 * records of timeouts and refutations, direct-mapped: 4096 covers a
 * parser's branch sites with few collisions, and a collision only costs
 * a site its history. */
#define GB_ADAPT_SLOTS 4096u
/* Each timeout in a row at a site halves its limit, down to 1/16, and
 * never below 50 ms: a site that keeps timing out stops eating the
 * budget, and one that was only unlucky still gets a real try. */
#define GB_MAX_STREAK 4u
#define GB_MIN_TIMEOUT_MS 50u
/* Relaxed first: after this many whole queries in a row at a site that Z3
 * could not satisfy while the negated condition alone was decided, the
 * negated condition goes first, and every 8th whole query is still sent
 * to Z3. On lz4's and zlib's seed traces 77% and 72% of the solving time
 * went to whole queries Z3 refuted or timed out on, mostly at sites that
 * did it again (docs/clauses.md). */
#define GB_RELAX_AFTER 2u
#define GB_RELAX_RECHECK 8u
/* Finding a small unsat core (a general learned clause) gets 20 ms. */
#define GB_CORE_TIMEOUT_MS 20u
/* With more hard conjuncts than this, the flipped condition is checked
 * with its direct neighbours first: on zlib a core search over hundreds
 * of conjuncts cost ~120 ms and mostly failed, and the cores found had
 * about two literals. */
#define GB_CORE_DIRECT 16u
/* That neighbours' check gets 200 ms: at 20 ms, 88 of 482 timed out on
 * the bench corpus, all before a query that was UNSAT (135 ms on
 * average); at 200 ms none did. */
#define GB_NEIGHBOUR_TIMEOUT_MS 200u
/* Stored-value conjuncts left out of one query, at most (a fixed list per
 * query; past it the rest stay in the query). */
#define GB_STORED_CAP 16u

/* ---- The search's periodic work ----------------------------------------- */

/* fuzzer_stats, plot_data and the status line are rewritten this often:
 * fresh for a person watching, and two small files cost nothing. The
 * campaign's combined status uses the same period. */
#define GB_STATUS_EVERY_MS 2000

/* How often a campaign's Glassbox worker writes a status line into
 * SYNC/.logs/NAME.log: a line a minute is about 1,400 a day. */
#define GB_LOG_STATUS_EVERY_MS 60000

/* Live triage (glassbox fuzz/campaign --triage): how often the sync dir's
 * crashes are looked at again, and how long the last pass may take once
 * the campaign stops before it is killed (its report stays consistent:
 * every file is replaced atomically). */
#define GB_LIVE_TRIAGE_EVERY_MS 5000
#define GB_LIVE_TRIAGE_GRACE_S 30

/* A campaign's libFuzzer job ends at its first crash and is started again
 * after a pause: 1 s, doubled each time it crashes within
 * GB_LF_QUICK_CRASH_S of starting (a crashing input it reloads at once),
 * up to GB_LF_RESTART_MAX_S, so such a loop costs little CPU. A worker
 * that stopped at Z3's memory ceiling (GB_Z3_MEM_MAX_MB) is started again
 * after the same pauses. */
#define GB_LF_QUICK_CRASH_S 10
#define GB_LF_RESTART_MAX_S 30

/* How long a campaign's jobs get after SIGINT to save and exit (afl-fuzz
 * writes its queue and stats, a worker finishes its step) before their
 * process groups are killed; a campaign that could not start every job
 * gives the others less, as they have little to save. */
#define GB_JOB_STOP_GRACE_MS 15000
#define GB_JOB_START_FAILED_GRACE_MS 5000

/* --exit-on-crash: how often a campaign counts the crash files on disk. */
#define GB_CRASH_POLL_MS 1000

/* Core lending (glassbox campaign --lend-after, fuzz-bridge/lend.c): a
 * worker that made no find of its own for GB_LEND_IDLE_S seconds of its
 * turn pauses and its core goes to an extra afl-fuzz -S (lentN) for
 * GB_LEND_SLICE_FACTOR times as long; that turn doubles each time the
 * worker's turn before it found nothing, up to GB_LEND_SLICE_MAX_FACTOR
 * times, and ends early once no AFL++ instance found anything for
 * GB_LEND_IDLE_S (Driller's rule: the worker for where AFL++ is stuck).
 * Issue 36's profile: beside AFL++ a worker's own finds come in its first
 * five minutes (110 in 0-300 s, then 7, 3, 1 per five minutes on libtiff),
 * and a second havoc instance is what AFL++ alone has that afl+glassbox
 * does not. The campaign looks every GB_LEND_POLL_S; a paused worker
 * looks for its pause file every GB_LEND_CHECK_MS. */
#define GB_LEND_IDLE_S 120
#define GB_LEND_SLICE_FACTOR 5
#define GB_LEND_SLICE_MAX_FACTOR 30
#define GB_LEND_POLL_S 5
#define GB_LEND_CHECK_MS 500

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

/* Constants per (site, direction) that each get one try past its
 * back-off (generational/sites.c): a table walk asks for an equality with
 * the next entry at each step (libtiff's codec lookup, 21). Past the
 * cap the back-off decides alone, so a loop whose exit compares a counter
 * with an input length (a new constant each iteration) costs at most this
 * many extra queries per direction. */
#define GB_SITE_CONSTS 64

/* The answer cache and the learned clauses are bounded: at this many
 * entries, the older half of each is dropped (kept: the newer half, which
 * is about the paths the search is on). An answer costs about 50 bytes in
 * memory and 28 in the shared file plus 5 a model byte; a clause 12 plus
 * 8 a literal (at most GB_CLAUSE_MAX literals, mostly 2 to 8), plus their
 * indexes: tens of MiB at the caps. A worker on png_read learned 6,535
 * clauses and cached about 18,000 answers in its first 32 minutes. */
#define GB_CACHE_MAX (1u << 18)
#define GB_CLAUSES_MAX (1u << 18)

/* A Z3 context keeps what its queries needed (its own tables and caches):
 * reused for hours, its memory follows the largest query so far. At the
 * end of a query, when Z3 holds more than this above what it held right
 * after the context was made, the solver's context is made anew
 * (z3_renewals in fuzzer_stats; the next query translates its slice
 * again). A new context costs about a millisecond; the learned
 * clauses and cached answers are Glassbox's and stay. */
#define GB_Z3_GROWTH_MAX_MB 24

/* Z3 may hold at most GB_Z3_GROWTH_MAX_MB + this above what a fresh
 * context held (17 MiB) while a check runs: a check that needs more is
 * stopped (Z3_interrupt from a watchdog thread that reads Z3's estimate
 * every GB_Z3_GUARD_POLL_MS), answers as a timeout, and the context is
 * made anew (queries_z3_memout). On png_read's queue traces Z3 held at
 * most 132 MiB during a check, and 6% of checks went above 105 MiB. A cap
 * on what one check allocates from its own start stopped 1,074 of 3,952
 * Z3 queries there, since a check on a new context first rebuilds what
 * the old one kept (bench/RESULTS.md). So Z3 holds at most about
 * 17 + 24 + 96 MiB, however deep the campaign's paths get, as long as the
 * check reads the interrupt: on png_read's largest inputs the simple
 * solver went on for seconds after it, to 1 GiB, blasting sums that Z3's
 * rewriter had flattened (now kept nested: GB_Z3_SUM_CHAIN; docs/reliability.md,
 * "Not yet proved"). */
#define GB_Z3_QUERY_MAX_MB 96
#define GB_Z3_GUARD_POLL_MS 5

/* Z3's own timer ends most checks, but it is read only between steps, and
 * the tactics and bit-blasting may not read it for seconds (checks ran 4-5
 * s under a 2 s limit on liblzma, issue 34). So the guard thread also
 * interrupts a check still running at its limit + limit / GB_Z3_GRACE_DIV
 * + GB_Z3_GRACE_MS. The grace lets Z3's timer end a check first where it
 * can: an interrupt leaves the context cancelled, and the next query pays
 * for a new one and translates its slice again. So a check is stopped at
 * 1.25 times its limit + 50 ms, plus the time Z3 takes to read the
 * interrupt: milliseconds mostly (symbolic_watchdog tests 1.5 times), but
 * Z3 reads it where it reads its own timer, and a few checks on the
 * parsers' seed traces still ran 1-3 s past (bench/RESULTS.md, issue 34). */
#define GB_Z3_GRACE_DIV 4
#define GB_Z3_GRACE_MS 50

/* A check that goes on allocating past the guard's interrupt cannot be
 * made to give its memory back: once Z3 holds more than this, a search
 * journals the input it is expanding and exits (GB_SEARCH_EXIT_MEMORY; a
 * campaign starts the worker again with --resume). --z3-mem-max sets it.
 * A check the interrupt stops holds at most about 17 + 24 + 96 MiB, and
 * on giflib's seed traces under load Z3 reached 169 MiB before one
 * returned (bench/RESULTS.md, session 22); the runaways of session 21
 * went to 981 MiB. */
#define GB_Z3_MEM_MAX_MB 512

/* A query with a chain of at least this many nested sums (ADD/SUB) keeps
 * them nested in Z3 (its sums named by constants, z3_bridge.c, name_sum):
 * flattened, k nested sums become k sums of up to k terms, which the simple
 * solver blasts past its limit and its interrupt. */
#define GB_Z3_SUM_CHAIN 32

/* In such a query, flattened sums of up to this many variable terms are
 * left to Z3 and longer ones named (z3_bridge.c, name_sum): the 90-step
 * chain of symbolic_bounds ran past its limit with 32 (0.9 s, 100 MiB) and
 * not with 16; zlib's seed traces' chain queries took as long with 16 as
 * with `flat` off process-wide, and 1.5x as long with 8. */
#define GB_Z3_NAME_TERMS 16

/* Core-guided rounds of one query (dropping the soft conjuncts and length
 * preferences in its unsat core) before it answers as it stands: each
 * round is a check, and a query rarely needs more than a few. */
#define GB_MAX_CORE_ROUNDS 16

/* A flip's query with bit-blasting on gives the simple solver 1/SHARE of
 * its limit before the qfbv tactic gets the rest (z3_bridge.c,
 * blast_round): a quarter for the simple solver, or no second round, lost
 * answers on libpng (bench/RESULTS.md). */
#define GB_Z3_SIMPLE_SHARE 8

/* Inputs waiting in a worker's worklist at most: beyond, the last in its
 * order are dropped from memory (`worklist_dropped`; each is in queue/
 * already, and --resume puts it back). Peers' inputs and children arrive
 * faster than a real parser's inputs are expanded (png_read: 4,476
 * waiting after 32 minutes), and each holds its bytes and its predicted
 * path, a few KiB. */
#define GB_WORKLIST_MAX 10000

/* Frontier blocks (hit, with a successor no run covered) kept per waiting
 * input: they order inputs that score alike, and are recounted when the
 * input is popped (generational/frontier.c). 64 of them cost 256 bytes an
 * input; an input with more counts as 64. */
#define GB_FRONTIER_MAX 64

/* An expansion stops after this many flips when an input that covered
 * new blocks waits (and goes back on the worklist, after it, with the
 * flips it has left): a real parser's trace has hundreds of branches, and
 * flipping them all before looking at a new find spent minutes on one
 * input (png_read: 3 to 7 expansions in 5 minutes). */
#define GB_EXPAND_SLICE 64

/* --slice-seconds' default, 0 = off: an expansion part that has run this
 * long (s) stops when any input waits, better or not, and goes back
 * behind the inputs waiting for a first expansion (expand.c, slow_slice).
 * Issue 36's profile of hour-long Magma campaigns beside AFL++:
 * expansions of over 30 s took half to two thirds of the worker's hour
 * and made 2 to 5 of its new blocks, while the inputs waiting behind them
 * (AFL++'s finds) made the rest; one 16 KiB input took 1,269 s in 25
 * parts. Off until a campaign A/B shows 30 s helps (bench/RESULTS.md). */
#define GB_EXPAND_SLICE_S 0

/* --again-seconds' default, 0 = off: a part of an input expanded again
 * (a suspended expansion's rest, a retry round's flips) that has run this
 * long (s) stops when an input waits for its first expansion, and goes
 * back behind it (expand.c, again_yields); and while peers are active a
 * retry's timeouts grow for one round only (GB_AGAIN_PATIENCE_PEERS), not
 * GB_RETRY_PATIENCE_MAX. Issue 36's profile of an hour on libtiff beside
 * AFL++: after 600 s, 20 such parts took 476 s for 3 finds while 124
 * first expansions took 155 s for 22; four of them (a retry's 32 s
 * flips, one input's rest three times) took 423 s and found nothing. */
#define GB_AGAIN_S 0
#define GB_AGAIN_PATIENCE_PEERS 1

/* When the worklist runs dry, the inputs whose expansion backed flips off
 * are expanded again, those flips only, with every back-off reset: a loop
 * that needs many more steps than GB_SITE_FREE_TRIES gets them instead of
 * the search stopping. An input takes part in at most GB_RETRY_ROUNDS
 * rounds, and at most GB_RETRY_MAX inputs wait for one (each holds its
 * input in memory; the rest are not retried). */
#define GB_RETRY_ROUNDS 8
#define GB_RETRY_MAX 4096
/* The worklist may never run dry: when each step of a loop counts as
 * progress (strtol_size's leading blanks and zeros, one per child), it
 * fills faster than it empties while no block is found. So a retry round
 * is also held once no new block was found for GB_STALL_RETRY_MS, and
 * each such round in a row without one doubles the wait, up to
 * GB_STALL_DOUBLINGS times. */
#define GB_STALL_RETRY_MS 5000
#define GB_STALL_DOUBLINGS 6
/* Flips that Z3 could not decide in time (or the trace's solver budget cut)
 * are retried too, with the timeout and the budget doubled for each round
 * an input has had, and no adaptive shortening, for GB_RETRY_PATIENCE_MAX
 * rounds: the last gives 2^GB_RETRY_PATIENCE_MAX times the time, 16 s a
 * query at the default 2 s. */
#define GB_RETRY_PATIENCE_MAX 3
/* A (site, direction) whose queries timed out this many times is not
 * asked again on a first expansion: its flips wait for a retry round
 * (which asks them with the patience above), so a few hard queries (a
 * 128-bit product, an exact checksum) do not take the whole budget from
 * the cheap ones (issue 37). */
#define GB_SITE_TIMEOUTS 2

/* Token repetition (generational/tokens.c, issue 37): a run's path
 * constraint holds the keyword compares its tokenizer made. A token of
 * 2 to GB_TOKEN_MAX printable bytes that matched one is copied, with the
 * separator after it, right behind itself: one child with 1 copy, one
 * with 2, 4, ... up to 2^(GB_TOKEN_REPS - 1). That is how "the same
 * keyword n times" gets written: a tokenizer's loop counts tokens in
 * plain variables, which no flip can set. The GB_TOKENS_PER_RUN tokens
 * matched last (distinct in their bytes) are tried, each child a native
 * run. */
#define GB_TOKEN_MAX 32
#define GB_TOKEN_REPS 5
#define GB_TOKENS_PER_RUN 8

/* Hit-count depth of a (site, direction) in scoring: the n-th time a
 * path takes it (2 <= n <= GB_DEPTH_MAX) counts as new, one more record
 * of a kind, one more counted item, one more trip round a loop. Past 8
 * nothing is new: a loop over a buffer's bytes would make every longer
 * input look new (generational/expand.c). */
#define GB_DEPTH_MAX 8

/* ---- The interval prefilter (symbolic/intervals.c, PARTI) ----------------- */

/* Intervals kept per variable's set; past it the smallest gaps close,
 * which only adds values (still sound for refutation, and candidates are
 * checked by evaluation anyway). 16 holds the disjoint ranges of a
 * keyword or tag switch. */
#define GB_IV_MAX 16
/* Room for a set while an operation runs, before it is merged back to
 * GB_IV_MAX (a union or a complement of two full sets). */
#define GB_IV_TMP 64
/* Operators walked between a comparison and its variable; longer chains
 * (a checksum's) are left to Z3. */
#define GB_IV_CHAIN 32
/* Values tried per variable when a query is checked by evaluation. */
#define GB_IV_CANDS 8
/* Node evaluations one enumeration may spend (~4 M, a few ms), and one
 * sweep of a wider query (~1 M): past them the prefilter says "unknown"
 * and Z3 decides, so the prefilter never costs more than a cheap check. */
#define GB_IV_ENUM_WORK (1u << 22)
#define GB_IV_SWEEP_WORK (1u << 20)
/* Nodes one hull (the range of a subexpression) may visit. */
#define GB_IV_HULL_BUDGET 64
/* Atoms of one linear sum, and the nodes reading it may visit: a length
 * field's arithmetic is a few terms. */
#define GB_IV_LIN_MAX 16
#define GB_IV_LIN_BUDGET 64
/* Flip candidates (variable, value) tried alone first, and the nodes with
 * two input operands solved for one side. */
#define GB_IV_FLIPS 16
#define GB_IV_SPLITS 4

/* ---- Inputs ------------------------------------------------------------- */

/* The largest input read, stored or made (seeds, peers, models): AFL++
 * ignores larger files when syncing (MAX_FILE), so larger ones could not
 * be shared, and the solver's length preferences end here. */
#define GB_MAX_INPUT (1u << 20)

/* Inputs one forked child of a cov build's libFuzzer driver runs in
 * persistent mode before the forkserver forks a fresh one: as AFL++'s
 * usual __AFL_LOOP(1000), enough to pay the fork rarely, few enough that
 * state a harness leaks between inputs is cleared now and then. */
#define GB_PERSIST_LOOPS 1000

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

/* tmin: the first deletion pass removes blocks of len/16 bytes (rounded up
 * to a power of two), halving down to single bytes: a few large blocks
 * catch long runs of junk cheaply, as afl-tmin's schedule does. */
#define GB_TMIN_START_STEPS 16
/* tmin: the byte normalised inputs are filled with. '0' rather than 0x00
 * because text formats stay readable and parsers that stop at NUL keep
 * reading (afl-tmin's choice too), so the same inputs compare. */
#define GB_TMIN_NORM_BYTE 0x30
/* tmin: per-byte normalisation tries blocks of this many bytes first and
 * splits only a block that cannot go whole: a run of junk costs one run
 * instead of one per byte; a block of all-needed bytes costs about twice
 * its length, so the block stays small. */
#define GB_TMIN_NORM_BLOCK 8
/* tmin: the first normalisation halves a block that cannot become '0'
 * whole down to this size: below it, the two runs a level cost more than
 * the byte steps that follow spend on what is left. */
#define GB_TMIN_COARSE_MIN 4
/* tmin --trace: rounds of "trace the zeroed candidate, solve the first
 * entry that left the original path" before the solver step gives up: each
 * is one trace-build run and one query, and a parser's fields rarely need
 * more than a few repairs each. */
#define GB_TMIN_MAX_REPAIRS 32

/* tmin --trace: concrete evaluations of path-constraint entries the
 * zeroing step may spend (each walks one entry's expression): a trace of a
 * checksum loop has thousands of deep entries, and past this the step
 * stops and leaves the rest to the runs of the classic passes. */
#define GB_TMIN_EVAL_BUDGET 2000000

/* tmin: no memory limit by default (afl-tmin's default too): crash mode
 * runs ASan builds, which reserve terabytes of address space and cannot
 * start under an RLIMIT_AS of a few GiB. */
#define GB_TMIN_MEM_LIMIT_MB 0

/* ---- Crash triage (triage/: crash.c, triage, replay) --------------------- */

/* Frames in a crash state: ClusterFuzz's choice. Fewer merges distinct
 * bugs that share a helper (a parser's read_u32); more splits one bug
 * reached from several callers' callers into many buckets. */
#define GB_CRASH_STATE_FRAMES 3
/* The most `--state-frames` takes. */
#define GB_CRASH_STATE_FRAMES_MAX 8

/* Stack frames kept per crash: deeper recursion (a stack overflow) adds
 * nothing to the state and would only bloat crash.json. */
#define GB_CRASH_MAX_FRAMES 256

/* Bytes of a sanitizer log read per run (its end, where the report is):
 * a report is a few KiB, a target that prints in a loop must not cost
 * the triage its memory. */
#define GB_SANREP_MAX_BYTES (1u << 20)

/* Runs per crashing input in triage: a bug that does not show in every
 * one of them is flaky. Three tells a 50% bug from a solid one with
 * probability 3/4 at a cost of three runs. */
#define GB_TRIAGE_RUNS 3

/* The bucket rule's version, in every crash.json (docs/triage.md,
 * "Buckets"): 2 = types without access sizes (1, unnamed, kept them). A
 * bucket of another rule or state depth is rebuilt under this one. */
#define GB_BUCKET_RULE 2

/* Time limit per run of an ASan/UBSan build in triage and replay (-t):
 * sanitizer builds run two to three times slower than the cov build and
 * start slower (shadow memory), so the fuzzing limit would turn slow
 * crashes into timeouts. */
#define GB_TRIAGE_TIMEOUT_MS 3000

/* llvm-symbolizer's time to answer one address (loading a large binary's
 * debug info the first time included); a symbolizer that takes longer is
 * dropped and frames stay module+offset. */
#define GB_SYMBOLIZER_TIMEOUT_MS 10000

/* glassbox reach's loop bound K (--unroll): a path counts when no branch
 * site's condition is evaluated more than K times on it. 8 lets small
 * loops run to completion while the bounded path tree stays small. */
#define GB_REACH_UNROLL 8

/* The largest K a proof may use: the tracer records every hit of a site
 * until back-off starts after GLASSBOX_BACKOFF (16) hits in one calling
 * context, so within 16 no entry a bounded path needs is ever dropped
 * (docs/reach.md, "What is proved"). */
#define GB_REACH_UNROLL_MAX 16

#endif
