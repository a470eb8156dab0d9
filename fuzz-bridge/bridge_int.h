/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-bridge/ internals shared by the forkserver client and plain exec:
 * environment building, child-side setup between fork and exec, clocks;
 * and the peers' cursor reader, for tests. */
#ifndef GB_BRIDGE_INT_H
#define GB_BRIDGE_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "fuzz_bridge.h"

/* Builds a NULL-terminated copy of the environment with `extra` ("K=V")
 * added; a K already present is replaced, and a bare "K" removes K. Strings are borrowed from environ
 * and `extra`, only the array is allocated (free with gb_free). Returns NULL
 * when out of memory. */
char **gbb_env_build(char *const *extra);
/* Makes this process the subreaper of the targets it starts (prctl), so
 * their orphans come back to it; called before each start. */
void gbb_subreaper(void);

/* Child side, between fork and exec (async-signal-safe calls only): new
 * session, limits, output redirection, stdin from `stdin_fd` (-1 means
 * /dev/null). Returns 0 or -1 with errno set. */
int gbb_child_setup(unsigned mem_limit_mb, int show_output, int stdin_fd);

/* Child side: exec, and on failure report errno through `err_fd` (a
 * close-on-exec pipe, so a successful exec reports nothing) and _exit. */
void gbb_child_exec(char *const *argv, char **envp, int err_fd) __attribute__((noreturn));

/* Parent side: reads the exec report; 0 if exec succeeded, else the errno. */
int gbb_exec_report(int err_rd);

/* Microseconds on the monotonic clock. */
uint64_t gbb_now_us(void);

/* A peer's read cursor, OUT/NAME/.synced/PEER (peers.c): "<next id>\n<name
 * of entry next id - 1>\n", read from at most GB_CURSOR_MAX bytes of
 * `data`. *last_name (gb_free it) is NULL when the file names none. 0, or
 * -1 when out of memory. */
#define GB_CURSOR_MAX 4096
int gb_peers_cursor_parse(const uint8_t *data, size_t len, uint32_t *next_id, char **last_name);

/* Turns a waitpid status into a run result (exec.c). */
void gb_bridge_classify(int status, int timed_out, gb_run_result_t *r);

#endif
