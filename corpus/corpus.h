/* SPDX-License-Identifier: Apache-2.0 */
/* corpus/: the campaign directory in AFL++ instance layout
 * (OUT/NAME/{queue,crashes,hangs}, fuzzer_stats, plot_data), the state a
 * campaign resumes from (the expansion journal, earlier counters), seed
 * loading.
 * Every file a peer may read is written atomically (temp file in
 * OUT/NAME/.tmp, then rename). Nothing here deletes or overwrites a saved
 * input. */
#ifndef GB_CORPUS_H
#define GB_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "gb_base.h"
#include "gb_config.h" /* GB_MAX_INPUT */

/* ---- Seeds ----------------------------------------------------------- */

typedef struct gb_seed {
    char *name; /* path below the seed directory, '/' made '_' ("sub_a") */
    uint8_t *data;
    size_t len;
} gb_seed_t;

/* Called once for each file gb_seeds_load skips: its path and why (one
 * line, e.g. "too large (2097152 bytes, limit 1048576)"). */
typedef void gb_seed_skip_fn(void *ctx, const char *path, const char *why);

/* Loads every regular file of `dir` and of its subfolders (following
 * symlinks), sorted by name; names starting with '.' are left out
 * silently. A file larger than GB_MAX_INPUT, a dangling symlink, something
 * that is not a regular file, an unreadable file or folder, a folder that
 * links back to its own parent, a name holding a line break or another
 * control byte (it could not go into a queue file name) are skipped:
 * skip(ctx, path, why) is told, with control bytes shown as '?',
 * (skip may be NULL) and the load goes on, as in AFL++ and libFuzzer.
 * Errors: dir missing or unreadable, no files ("no seed files in DIR"),
 * nothing usable ("no usable seed in DIR"), out of memory. Empty files are
 * accepted. */
int gb_seeds_load(const char *dir, gb_seed_skip_fn *skip, void *ctx, gb_seed_t **seeds, size_t *n,
                  gb_err_t *e);
void gb_seeds_free(gb_seed_t *seeds, size_t n);

/* ---- Campaign directory ---------------------------------------------- */

typedef struct gb_campaign gb_campaign_t;

/* 1 if `name` may name an instance (OUT/NAME, and part of every peer's
 * queue file names): letters, digits, '_' and '-', not empty. */
int gb_campaign_name_ok(const char *name);

/* Opens OUT/NAME, creating OUT, OUT/NAME, queue/, crashes/, hangs/, .tmp/.
 * Refuses (error naming the path and --resume) when OUT/NAME/queue already
 * holds entries, so a finished campaign is never overwritten; refuses an
 * unwritable OUT. NAME must be [A-Za-z0-9_-]+. */
int gb_campaign_open(const char *out, const char *name, gb_campaign_t **c, gb_err_t *e);

/* Flags for gb_campaign_open_flags. */
enum {
    GB_CAMPAIGN_RESUME = 1u, /* accept existing entries; ids continue after them */
};
int gb_campaign_open_flags(const char *out, const char *name, unsigned flags, gb_campaign_t **c,
                           gb_err_t *e);
void gb_campaign_close(gb_campaign_t *c);

const char *gb_campaign_dir(const gb_campaign_t *c);    /* OUT/NAME */
const char *gb_campaign_tmpdir(const gb_campaign_t *c); /* OUT/NAME/.tmp */

/* Before a scratch file of the instance's own in OUT/NAME (`name`, e.g.
 * ".cur_trace_input") is written by path: a symlink a peer planted there
 * is removed, the link and never what it points to, so the write makes a
 * file of ours instead of failing on every run. */
void gb_campaign_unplant(const gb_campaign_t *c, const char *name);

/* Adds a queue entry queue/id:NNNNNN,<desc> with the next id (contiguous
 * from 0). `desc` is the rest of the name, e.g. "orig:seed1" or
 * "src:000003,op:gen,pos:12,+cov"; it must not contain '/'. *id gets the id. */
int gb_campaign_add_queue(gb_campaign_t *c, const uint8_t *data, size_t len, const char *desc,
                          uint32_t *id, gb_err_t *e);

/* How crashes are replayed, said once for crashes/README.txt and the CLI's
 * end-of-run crash summary: GB_CRASH_REPLAY " DIR/FILES -- " ASAN_BIN. */
#define GB_CRASH_REPLAY "glassbox replay"
#define GB_CRASH_REPLAY_ASAN "./NAME.asan" /* what 'glassbox build' names the ASan build */

/* Adds crashes/id:NNNNNN,sig:SS,<desc> (crash ids count separately). The
 * first crash also writes crashes/README.txt saying how to replay. */
int gb_campaign_add_crash(gb_campaign_t *c, const uint8_t *data, size_t len, int sig,
                          const char *desc, uint32_t *id, gb_err_t *e);

/* Adds hangs/id:NNNNNN,<desc>. */
int gb_campaign_add_hang(gb_campaign_t *c, const uint8_t *data, size_t len, const char *desc,
                         uint32_t *id, gb_err_t *e);

uint32_t gb_campaign_queue_count(const gb_campaign_t *c);

/* The file name gb_campaign_add_queue gave its latest entry ("" before
 * the first); valid until the next add. */
const char *gb_campaign_last_queue_name(const gb_campaign_t *c);

/* Reads queue/NAME back (no symlink followed, at most GB_MAX_INPUT
 * bytes): a search keeps a waiting input's bytes there, not in memory. */
int gb_campaign_read_queue(const gb_campaign_t *c, const char *name, uint8_t **data, size_t *len,
                           gb_err_t *e);

/* OUT/NAME/queue, OUT/NAME/crashes, OUT/NAME/hangs. */
const char *gb_campaign_queue_dir(const gb_campaign_t *c);
const char *gb_campaign_crash_dir(const gb_campaign_t *c);

/* ---- Directory entries ------------------------------------------------ */

/* An "id:NNNNNN,..." file of a queue/crashes/hangs directory. */
typedef struct gb_entry {
    uint32_t id;
    char *name; /* file name, no directory */
} gb_entry_t;

/* 1 when `name` is an entry's: "id:", decimal digits (no sign, no space;
 * AFL++ pads them to six and writes more past 999999), then ',' or the
 * end. *id is their value, below UINT32_MAX so that id + 1 is a next id.
 * 0 for any other name. */
int gb_entry_id(const char *name, uint32_t *id);

/* The id: entries of `dir`, sorted by id (names that do not start with
 * "id:" and a number are skipped). A missing dir gives 0 entries. */
int gb_entries_list(const char *dir, gb_entry_t **entries, size_t *n, gb_err_t *e);
/* The same for the directory open as `dirfd` (left open). */
int gb_entries_list_at(int dirfd, gb_entry_t **entries, size_t *n, gb_err_t *e);
void gb_entries_free(gb_entry_t *entries, size_t n);

/* A fuzzer_stats line. Values are preformatted strings: `value` for
 * numbers and short words, `text` for a value of any length (the command
 * line), used instead of `value` when not NULL. */
typedef struct gb_stat {
    const char *key;
    char value[64];
    const char *text;
} gb_stat_t;

/* Rewrites fuzzer_stats atomically: one "key<pad> : value" line per entry,
 * keys padded to 18 columns as AFL++ does, in the order given. */
int gb_campaign_write_stats(gb_campaign_t *c, const gb_stat_t *stats, size_t n, gb_err_t *e);

/* One plot_data row; the file starts with AFL++ 4.04c's header line
 * "# relative_time, cycles_done, cur_item, corpus_count, pending_total,
 * pending_favs, map_size, saved_crashes, saved_hangs, max_depth,
 * execs_per_sec, total_execs, edges_found". Rows are appended with one
 * write each. */
typedef struct gb_plot_row {
    uint64_t relative_time; /* seconds since start */
    uint64_t cycles_done, cur_item, corpus_count, pending_total, pending_favs;
    double map_size; /* percent of the map covered */
    uint64_t saved_crashes, saved_hangs, max_depth;
    double execs_per_sec;
    uint64_t total_execs, edges_found;
} gb_plot_row_t;

int gb_campaign_plot(gb_campaign_t *c, const gb_plot_row_t *row, gb_err_t *e);
/* Appends `row` (n bytes, one line or more) to the instance's own file
 * `name` with one write, `header` first when the file is new or empty
 * (expansions.tsv; docs/campaign.md). */
int gb_campaign_append_row(gb_campaign_t *c, const char *name, const char *header,
                           const char *row, size_t n, gb_err_t *e);

/* Reads the numbers of an earlier session's fuzzer_stats (resume): for each
 * of the n keys found with a number, vals[i] is set; others are left as
 * they are. A number is decimal digits only (spaces around them allowed)
 * that fit in 64 bits: "-5", "12abc" or a value past 2^64 - 1 is a bad
 * field, ignored (never wrapped). Returns how many were found (0 without
 * a readable file). */
#define GB_STATS_MAX (1u << 20) /* a larger fuzzer_stats is not ours */
int gb_campaign_read_stats(const gb_campaign_t *c, const char *const *keys, uint64_t *vals,
                           size_t n);
/* gb_campaign_read_stats that also names the bad fields it ignored: when
 * there are any, `bad` (may be NULL) gets a one-line message naming them. */
int gb_campaign_read_stats_checked(const gb_campaign_t *c, const char *const *keys,
                                   uint64_t *vals, size_t n, gb_err_t *bad);
/* The same on the bytes of a fuzzer_stats file already read (need not end
 * in a NUL); 0 found when out of memory. */
int gb_campaign_parse_stats(const uint8_t *data, size_t len, const char *const *keys,
                            uint64_t *vals, size_t n);
/* Raises the number `key` holds in DIR/fuzzer_stats to v, atomically (staged
 * in DIR), keeping every other byte: 1 if it was rewritten, 0 if it held v
 * or more, had no such number or is not a text file; -1 with `e` when it
 * cannot be read or written. For a file its worker no longer writes. */
int gb_stats_raise(const char *dir, const char *key, uint64_t v, gb_err_t *e);

/* ---- Expansion journal (resume) --------------------------------------- */

/* Where a stored input lives. */
typedef enum gb_stored { GB_STORED_QUEUE, GB_STORED_CRASH } gb_stored_t;

typedef struct gb_journal gb_journal_t;

/* Opens OUT/NAME/.expanded of the campaign and reads which stored inputs
 * an earlier session finished expanding (none when the file is missing). */
int gb_journal_open(const gb_campaign_t *c, gb_journal_t **j, gb_err_t *e);

/* A journal marked from the text of a .expanded file (tests, fuzzing): it
 * answers gb_journal_done; it has no file, so gb_journal_append fails. */
int gb_journal_from_text(const uint8_t *data, size_t len, gb_journal_t **j, gb_err_t *e);

/* 1 if the journal lists the expansion of stored input (kind, id). The
 * journal's answers cover what was read and what was appended since. */
int gb_journal_done(const gb_journal_t *j, gb_stored_t kind, uint32_t id);

/* Appends "q ID" or "c ID" with one write. On failure returns -1 with
 * errno kept (ENOSPC/EDQUOT on a full disk, for a retry) and no partial
 * line left behind. */
int gb_journal_append(gb_journal_t *j, gb_stored_t kind, uint32_t id, gb_err_t *e);

/* Appends "Q ID" or "C ID": the expansion of (kind, id) begins. Errors as
 * for gb_journal_append. */
int gb_journal_begin(gb_journal_t *j, gb_stored_t kind, uint32_t id, gb_err_t *e);

/* Appends "x": the expansion begun last stops unfinished, and the process
 * does not die (a stop request, the time limit). */
int gb_journal_stop(gb_journal_t *j, gb_err_t *e);

/* 1, with the input's place, if the journal ends in an expansion
 * that began and neither finished nor stopped: the process writing it died
 * during that expansion (Z3's memory ceiling, the kernel's OOM killer, a
 * kill -9, a crash of its own). 0 otherwise. */
int gb_journal_died_in(const gb_journal_t *j, gb_stored_t *kind, uint32_t *id);

void gb_journal_close(gb_journal_t *j); /* NULL is ok */

#endif
