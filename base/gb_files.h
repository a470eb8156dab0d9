/* SPDX-License-Identifier: Apache-2.0 */
/* The one way Glassbox writes files that others can reach (a sync dir, an
 * output dir, a report dir) and reads entries others may have planted.
 * Directories are walked by descriptor, and below the root the caller
 * names, no symlink is ever followed: a peer that plants a link in a
 * shared directory cannot make Glassbox write, truncate or create a file
 * anywhere else. Every write is staged under a temporary name and renamed
 * onto a target that is absent or a regular file; anything else (a
 * symlink, a FIFO, a device, a directory) is refused with a one-line
 * error. docs/reliability.md states the promises; tests/base/test_files.c
 * holds them. */
#ifndef GB_FILES_H
#define GB_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gb_base.h"

/* Opens the directory `root` (symlinks in it are followed: the user named
 * it), then each component of `rel` (NULL or "" for none) below it with
 * O_NOFOLLOW | O_DIRECTORY, creating missing ones (mode 0755) when
 * `create`. With `create`, a missing `root` is made too (as gb_mkdirs).
 * A component ".." or a symlink is refused. Returns a descriptor
 * (O_CLOEXEC; close it) or -1 with `e`. */
int gb_dir_open(const char *root, const char *rel, int create, gb_err_t *e);

/* Opens (creating when `create`) the single directory entry `name` below
 * the directory open as `dirfd`, never through a symlink. `name` holds no
 * '/' and is not "." or "..". A descriptor or -1 with `e`. */
int gb_dir_openat(int dirfd, const char *name, int create, gb_err_t *e);

/* Writes `len` bytes to `name` in the directory `dirfd` atomically: a
 * fresh file (O_EXCL) in `tmpfd` (the same file system; -1 for `dirfd`
 * itself), written, fsynced, then renamed onto `name`. A target that
 * exists and is not a regular file is refused and left alone. 0 or -1
 * with `e`; on error nothing is left behind. */
int gb_file_write_at(int dirfd, const char *name, int tmpfd, const void *data, size_t len,
                     gb_err_t *e);

/* Like gb_file_write_at, but `name` is never replaced: the staged file is
 * hard-linked to it (linkat, which fails on an existing name), so two
 * writers racing for one name cannot lose a file. 0, 1 if `name` exists
 * (nothing written), or -1 with `e`. */
int gb_file_publish_at(int dirfd, const char *name, int tmpfd, const void *data, size_t len,
                       gb_err_t *e);

/* How gb_file_open_at opens a file for writing. */
enum {
    GB_OPEN_NEW = 1,    /* create; the name must not exist (O_EXCL) */
    GB_OPEN_APPEND = 2, /* create if missing, append */
    GB_OPEN_TRUNC = 3,  /* create if missing, truncate (a scratch file of Glassbox's own) */
    GB_OPEN_READ = 8    /* or'ed in: open read-write instead of write-only */
};

/* Opens `name` in `dirfd` for writing as `how` says, without following a
 * symlink and without blocking on a FIFO; anything but a regular file is
 * refused before a byte is written or truncated. A descriptor (O_CLOEXEC)
 * or -1 with `e`. */
int gb_file_open_at(int dirfd, const char *name, int how, gb_err_t *e);

/* A file written with stdio and published atomically on commit: what
 * goes to `f` lands under a temporary name in the directory, and
 * gb_wfile_commit flushes, fsyncs and renames it onto the name given to
 * gb_wfile_open (refusing a target that is not a regular file). */
typedef struct gb_wfile {
    FILE *f;
    int dirfd;     /* owned: a dup of the caller's */
    char tmp[64];  /* the temporary name in dirfd */
    char name[256];
} gb_wfile_t;

int gb_wfile_open(gb_wfile_t *st, int dirfd, const char *name, gb_err_t *e);
int gb_wfile_commit(gb_wfile_t *st, gb_err_t *e); /* also closes; -1 leaves nothing */
void gb_wfile_abort(gb_wfile_t *st);              /* closes, removes the temporary */

/* An output file the user named on the command line (`-o PATH`): the
 * directory part is followed as given, the last component is written
 * through gb_file_write_at, so a symlink, device or FIFO there is refused,
 * never deleted or replaced. 0 or -1 with `e`. */
int gb_write_path(const char *path, const void *data, size_t len, gb_err_t *e);

/* Opens an output file the user named (a log written as the run goes) as
 * `how` (GB_OPEN_TRUNC or GB_OPEN_APPEND) for stdio: the directory part
 * is followed as given, a symlink, FIFO or device at the last component
 * is refused. NULL with `e`. */
FILE *gb_fopen_path(const char *path, int how, gb_err_t *e);

/* Checks an output path before any work: 0 if `path` is absent or a
 * regular file and is not the same file as `input` (may be NULL), else -1
 * with a one-line error naming `what` (e.g. "-o"). */
int gb_check_output(const char *what, const char *path, const char *input, gb_err_t *e);

/* Splits `path` into its directory (written to `dir`, "." if none) and
 * returns its last component, or NULL (with `e`) if `path` ends in '/',
 * is empty or does not fit. */
const char *gb_path_split(const char *path, char *dir, size_t dirsz, gb_err_t *e);

/* Creates a fresh private directory below `dirfd` (a new hidden name, so
 * nothing planted can be there) for a helper program to write into; its
 * name goes to `name` (at least 64 bytes). A descriptor or -1 with `e`.
 * gb_dir_remove_temp empties (regular files and links only) and removes
 * it. */
int gb_dir_make_temp(int dirfd, char *name, size_t namesz, gb_err_t *e);
void gb_dir_remove_temp(int parent, const char *name, int fd);

/* Moves the regular file `from` in `fromfd` to `to` in `tofd` (the same
 * file system) without ever replacing anything at `to`
 * (renameat2 RENAME_NOREPLACE): 0, 1 if `to` exists (nothing moved), or
 * -1 with `e` (also when `from` is not a regular file). For a file staged
 * whole in a private directory and published into a shared one. */
int gb_file_move_at(int fromfd, const char *from, int tofd, const char *to, gb_err_t *e);

/* Moves the file `from` in `fromfd` (one Glassbox made under a private
 * name, e.g. a trace a target wrote) onto `to` in `todirfd` (the same file
 * system): `from` must be a regular file and `to` absent or a regular
 * file; anything else is refused and left alone. 0 or -1 with `e`. */
int gb_file_rename_at(int fromfd, const char *from, int todirfd, const char *to, gb_err_t *e);

/* Removes `name` from `dirfd` if it is a regular file or a symlink (the
 * link, not its target); 0 if gone or absent. */
int gb_file_remove_at(int dirfd, const char *name);

/* gb_file_remove_at for a path the caller owns (a scratch file of its
 * own): the directory part is followed as given, the last component is
 * removed only if it is a regular file or a symlink. 0 if gone or absent. */
int gb_remove_path(const char *path);

/* Removes the empty directory `name` from `dirfd` (a symlink or anything
 * else there stays); 0 if gone or absent, else -1. */
int gb_dir_remove_at(int dirfd, const char *name);

#endif
