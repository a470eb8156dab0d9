/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of base/files.c, the one way Glassbox writes files others can
 * reach: no write, truncation or creation through a symlink, no target but
 * a regular file replaced, no block on a FIFO, nothing staged left behind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "gb_files.h"

static char root[256];

static void path_of(char *out, size_t n, const char *rel) { snprintf(out, n, "%s/%s", root, rel); }

static void put(const char *rel, const char *text)
{
    char p[512];
    path_of(p, sizeof p, rel);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int has(const char *rel, const char *text)
{
    char p[512], buf[256] = {0};
    path_of(p, sizeof p, rel);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static int is_kind(const char *rel, mode_t kind)
{
    char p[512];
    struct stat st;
    path_of(p, sizeof p, rel);
    return lstat(p, &st) == 0 && (st.st_mode & S_IFMT) == kind;
}

static void link_to(const char *target, const char *rel)
{
    char p[512];
    path_of(p, sizeof p, rel);
    CHECK(symlink(target, p) == 0);
}

static void test_dirs(void)
{
    gb_err_t e = {{0}};
    char outside[512];
    path_of(outside, sizeof outside, "outside");
    CHECK(mkdir(outside, 0755) == 0);
    int fd = gb_dir_open(root, "a/b", 1, &e);
    CHECK_MSG(fd >= 0, "%s", e.msg);
    CHECK(is_kind("a/b", S_IFDIR));
    if (fd >= 0)
        close(fd);
    link_to(outside, "a/link");
    CHECK(gb_dir_open(root, "a/link", 0, &e) < 0 && strstr(e.msg, "symbolic link"));
    CHECK(gb_dir_open(root, "a/link/x", 1, &e) < 0);
    CHECK(!is_kind("outside/x", S_IFDIR)); /* nothing made through the link */
    CHECK(gb_dir_open(root, "a/../a", 0, &e) < 0);
    put("a/file", "x");
    CHECK(gb_dir_open(root, "a/file", 1, &e) < 0 && strstr(e.msg, "not a directory"));
}

static void test_write(void)
{
    gb_err_t e = {{0}};
    int fd = gb_dir_open(root, "w", 1, &e);
    CHECK(fd >= 0);
    CHECK(gb_file_write_at(fd, "f", -1, "one", 3, &e) == 0 && has("w/f", "one"));
    CHECK(gb_file_write_at(fd, "f", -1, "two", 3, &e) == 0 && has("w/f", "two"));
    /* A planted symlink is refused, and its target keeps its bytes. */
    put("victim", "keep");
    char victim[512];
    path_of(victim, sizeof victim, "victim");
    link_to(victim, "w/l");
    CHECK(gb_file_write_at(fd, "l", -1, "evil", 4, &e) < 0 && strstr(e.msg, "symbolic link"));
    CHECK(has("victim", "keep") && is_kind("w/l", S_IFLNK));
    char fifo[512];
    path_of(fifo, sizeof fifo, "w/fifo");
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(gb_file_write_at(fd, "fifo", -1, "x", 1, &e) < 0 && strstr(e.msg, "FIFO"));
    CHECK(is_kind("w/fifo", S_IFIFO));
    CHECK(gb_file_write_at(fd, "../victim", -1, "x", 1, &e) < 0 && has("victim", "keep"));
    /* Opening for writing: never through the link, never blocking on the FIFO. */
    CHECK(gb_file_open_at(fd, "l", GB_OPEN_TRUNC, &e) < 0 && has("victim", "keep"));
    CHECK(gb_file_open_at(fd, "l", GB_OPEN_APPEND, &e) < 0 && has("victim", "keep"));
    CHECK(gb_file_open_at(fd, "fifo", GB_OPEN_APPEND, &e) < 0);
    CHECK(gb_file_open_at(fd, "f", GB_OPEN_NEW, &e) < 0);
    int w = gb_file_open_at(fd, "f", GB_OPEN_TRUNC | GB_OPEN_READ, &e);
    CHECK(w >= 0);
    if (w >= 0) {
        CHECK(write(w, "3", 1) == 1);
        close(w);
    }
    CHECK(has("w/f", "3"));
    /* publish never replaces. */
    CHECK(gb_file_publish_at(fd, "p", -1, "first", 5, &e) == 0);
    CHECK(gb_file_publish_at(fd, "p", -1, "second", 6, &e) == 1 && has("w/p", "first"));
    CHECK(gb_file_publish_at(fd, "l", -1, "evil", 4, &e) == 1 && has("victim", "keep"));
    /* stdio staging: nothing visible before commit, the link refused. */
    gb_wfile_t st;
    CHECK(gb_wfile_open(&st, fd, "s", &e) == 0);
    fputs("staged", st.f);
    CHECK(!is_kind("w/s", S_IFREG));
    CHECK(gb_wfile_commit(&st, &e) == 0 && has("w/s", "staged"));
    CHECK(gb_wfile_open(&st, fd, "l", &e) < 0 && has("victim", "keep"));
    CHECK(gb_wfile_open(&st, fd, "s2", &e) == 0);
    gb_wfile_abort(&st);
    CHECK(!is_kind("w/s2", S_IFREG));
    /* Only the names written remain: no staged file is left behind. */
    char w_dir[512];
    path_of(w_dir, sizeof w_dir, "w");
    DIR *d = opendir(w_dir);
    int staged = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        staged += strncmp(de->d_name, ".gb-tmp", 7) == 0;
    if (d)
        closedir(d);
    CHECK(staged == 0);
    close(fd);
}

/* gb_file_rename_at moves a regular file onto an absent or regular name
 * only: a planted link or FIFO at either end is refused and left alone. */
static void test_rename(void)
{
    gb_err_t e = {{0}};
    int fd = gb_dir_open(root, "r", 1, &e);
    CHECK(fd >= 0);
    put("r/a", "A");
    CHECK(gb_file_rename_at(fd, "a", fd, "b", &e) == 0 && has("r/b", "A") &&
          !is_kind("r/a", S_IFREG));
    put("r/a", "A2");
    CHECK(gb_file_rename_at(fd, "a", fd, "b", &e) == 0 && has("r/b", "A2"));
    put("victim2", "keep");
    char victim[512], fifo[512];
    path_of(victim, sizeof victim, "victim2");
    link_to(victim, "r/l");
    put("r/a", "A3");
    CHECK(gb_file_rename_at(fd, "a", fd, "l", &e) < 0 && strstr(e.msg, "symbolic link"));
    CHECK(is_kind("r/l", S_IFLNK) && has("victim2", "keep") && has("r/a", "A3"));
    CHECK(gb_file_rename_at(fd, "l", fd, "c", &e) < 0 && is_kind("r/l", S_IFLNK));
    path_of(fifo, sizeof fifo, "r/fifo");
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(gb_file_rename_at(fd, "a", fd, "fifo", &e) < 0 && is_kind("r/fifo", S_IFIFO));
    CHECK(gb_file_rename_at(fd, "fifo", fd, "d", &e) < 0 && is_kind("r/fifo", S_IFIFO));
    close(fd);
}

static void test_paths(void)
{
    gb_err_t e = {{0}};
    char p[512], in[512], fifo[512], l[512];
    path_of(p, sizeof p, "out.bin");
    CHECK(gb_write_path(p, "ok", 2, &e) == 0 && has("out.bin", "ok"));
    CHECK(gb_check_output("-o", p, NULL, &e) == 0);
    path_of(in, sizeof in, "in.bin");
    put("in.bin", "input");
    CHECK(gb_check_output("-o", in, in, &e) < 0 && strstr(e.msg, "input"));
    path_of(fifo, sizeof fifo, "w/fifo");
    CHECK(gb_check_output("-o", fifo, NULL, &e) < 0 && strstr(e.msg, "FIFO"));
    CHECK(gb_write_path(fifo, "x", 1, &e) < 0 && is_kind("w/fifo", S_IFIFO));
    path_of(l, sizeof l, "w/l");
    CHECK(gb_check_output("-o", l, NULL, &e) < 0 && strstr(e.msg, "symbolic link"));
    CHECK(gb_check_output("-o", "/dev/null", NULL, &e) < 0 && strstr(e.msg, "device"));
    CHECK(gb_write_path("/dev/null", "x", 1, &e) < 0);
    struct stat st;
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    FILE *lf = gb_fopen_path(p, GB_OPEN_TRUNC, &e);
    CHECK(lf != NULL);
    if (lf) {
        fputs("log", lf);
        fclose(lf);
    }
    CHECK(has("out.bin", "log"));
    CHECK(gb_fopen_path(l, GB_OPEN_TRUNC, &e) == NULL && has("victim", "keep"));
    CHECK(gb_fopen_path(fifo, GB_OPEN_APPEND, &e) == NULL);
    char dir[64];
    CHECK(strcmp(gb_path_split("x", dir, sizeof dir, &e), "x") == 0 && !strcmp(dir, "."));
    CHECK(strcmp(gb_path_split("/x", dir, sizeof dir, &e), "x") == 0 && !strcmp(dir, "/"));
    CHECK(strcmp(gb_path_split("a/b/c", dir, sizeof dir, &e), "c") == 0 && !strcmp(dir, "a/b"));
    CHECK(gb_path_split("a/", dir, sizeof dir, &e) == NULL);
}

/* gb_file_move_at: a staged file moves in, nothing at the target is
 * ever replaced, and only regular files move. */
static void test_move(void)
{
    gb_err_t e = {{0}};
    char p[512];
    path_of(p, sizeof p, "");
    int fd = gb_dir_open(p, "mv", 1, &e);
    CHECK(fd >= 0);
    put("mv/a", "staged");
    CHECK(gb_file_move_at(fd, "a", fd, "b", &e) == 0 && has("mv/b", "staged") &&
          !is_kind("mv/a", S_IFREG));
    put("mv/c", "new");
    put("mv/keep", "old");
    CHECK(gb_file_move_at(fd, "c", fd, "keep", &e) == 1 && has("mv/keep", "old") &&
          has("mv/c", "new"));
    link_to("/nonexistent-target", "mv/l");
    CHECK(gb_file_move_at(fd, "c", fd, "l", &e) == 1 && is_kind("mv/l", S_IFLNK));
    CHECK(gb_file_move_at(fd, "l", fd, "m", &e) < 0 && strstr(e.msg, "symbolic link"));
    CHECK(gb_file_move_at(fd, "../x", fd, "m", &e) < 0);
    CHECK(gb_dir_remove_at(fd, "l") < 0 && is_kind("mv/l", S_IFLNK));
    int sub = gb_dir_openat(fd, "d", 1, &e);
    CHECK(sub >= 0);
    if (sub >= 0)
        close(sub);
    CHECK(gb_dir_remove_at(fd, "d") == 0 && !is_kind("mv/d", S_IFDIR));
    CHECK(gb_dir_remove_at(fd, "d") == 0);
    close(fd);
    char q[512];
    path_of(q, sizeof q, "mv/b");
    CHECK(gb_remove_path(q) == 0 && !is_kind("mv/b", S_IFREG) && gb_remove_path(q) == 0);
    path_of(q, sizeof q, "mv");
    CHECK(gb_remove_path(q) < 0 && is_kind("mv", S_IFDIR)); /* a directory stays */
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/gb-files-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    test_dirs();
    test_write();
    test_rename();
    test_paths();
    test_move();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        return 1;
    return check_exit("base.files");
}
