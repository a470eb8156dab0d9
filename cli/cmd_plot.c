/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox plot: PNG plots of an instance's plot_data (coverage, execs/s,
 * queue, crashes over time) and an index.html, drawn by gnuplot. Works on
 * AFL++ instance directories too: the columns are AFL++ 4.04c's. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_base.h"
#include "gb_files.h"

/* plot_data columns (1-based for gnuplot). */
enum { COL_TIME = 1, COL_CORPUS = 4, COL_PENDING = 5, COL_CRASHES = 8, COL_HANGS = 9,
       COL_EPS = 11, COL_EDGES = 13 };

static const struct {
    const char *file, *title, *ylabel;
    int cols[2];
    const char *names[2];
} plots[] = {
    {"coverage.png", "coverage", "blocks", {COL_EDGES, 0}, {"blocks (edges_found)", NULL}},
    {"execs.png", "speed", "execs/s", {COL_EPS, 0}, {"execs per second", NULL}},
    {"queue.png", "queue", "inputs", {COL_CORPUS, COL_PENDING}, {"corpus", "pending"}},
    {"crashes.png", "crashes and hangs", "count", {COL_CRASHES, COL_HANGS}, {"crashes", "hangs"}},
};

/* The gnuplot script holds no name at all: the data come on descriptor
 * 3 and the plots go to the working directory (a fresh private one), so
 * no byte of a directory or file name can become gnuplot code. */
static int write_script(FILE *f)
{
    /* noenhanced: names like edges_found are text, not a subscript */
    fprintf(f, "set terminal png size 800,360 noenhanced\nset datafile separator ','\n");
    fprintf(f, "set xlabel 'seconds'\nset grid\nset key left top\n");
    for (size_t i = 0; i < GB_N(plots); i++) {
        fprintf(f, "set output '%s'\nset title '%s'\nset ylabel '%s'\n", plots[i].file,
                plots[i].title, plots[i].ylabel);
        fprintf(f, "plot '/dev/fd/3' using %d:%d with lines lw 2 title '%s'", COL_TIME,
                plots[i].cols[0], plots[i].names[0]);
        if (plots[i].cols[1])
            fprintf(f, ", '' using %d:%d with lines lw 2 title '%s'", COL_TIME, plots[i].cols[1],
                    plots[i].names[1]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* Appends `s` to the buffer as HTML text: markup characters as entities,
 * control bytes and bytes outside ASCII as \xNN, so a name can neither
 * open a tag nor break the page's UTF-8. */
static void html_text(char *b, size_t cap, size_t *n, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p && *n + 8 < cap; p++) {
        const char *ent = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;"
                          : *p == '"' ? "&quot;" : *p == '\'' ? "&#39;" : NULL;
        int w = ent ? snprintf(b + *n, cap - *n, "%s", ent)
                : (*p < 0x20 || *p >= 0x7f) ? snprintf(b + *n, cap - *n, "\\x%02x", *p)
                                            : snprintf(b + *n, cap - *n, "%c", *p);
        *n += (size_t)w;
    }
}

static int write_index(int outfd, const char *dir, gb_err_t *e)
{
    char body[16384];
    size_t n = (size_t)snprintf(body, sizeof body, "<!doctype html>\n<html><head>"
                                                   "<meta charset='utf-8'><title>");
    html_text(body, sizeof body, &n, dir);
    n += (size_t)snprintf(body + n, sizeof body - n, "</title></head>\n<body><h1>");
    html_text(body, sizeof body, &n, dir);
    n += (size_t)snprintf(body + n, sizeof body - n, "</h1>\n");
    for (size_t i = 0; i < GB_N(plots) && n < sizeof body; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "<p><img src='%s' alt='%s'></p>\n",
                              plots[i].file, plots[i].title);
    if (n >= sizeof body - 32)
        return gb_err_set(e, "directory name too long for index.html");
    n += (size_t)snprintf(body + n, sizeof body - n, "</body></html>\n");
    return gb_file_write_at(outfd, "index.html", -1, body, n, e);
}

/* Runs gnuplot in the private directory `workfd` on the script, with the
 * data on descriptor 3 and its stderr to `logfd`. Its exit status, 127 if
 * it could not start, -1 on error. */
static int run_gnuplot(int workfd, int datafd, int logfd)
{
    char *script;
    size_t len;
    FILE *mem = open_memstream(&script, &len);
    if (!mem)
        return -1;
    int bad = write_script(mem);
    if (fclose(mem) != 0 || bad || len >= 65536) { /* it must fit the pipe */
        free(script);
        return -1;
    }
    int pfd[2];
    if (pipe(pfd) != 0) {
        free(script);
        return -1;
    }
    ssize_t w = write(pfd[1], script, len);
    free(script);
    close(pfd[1]);
    pid_t pid = w == (ssize_t)len ? fork() : -1;
    if (pid == 0) {
        if (fchdir(workfd) != 0 || dup2(pfd[0], 0) < 0 || dup2(datafd, 3) < 0 ||
            dup2(logfd, 2) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    close(pfd[0]);
    if (pid < 0)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* gnuplot's PNGs, moved from its private directory into OUT (never onto
 * anything but a regular file). */
static int publish_plots(int workfd, int outfd, gb_err_t *e)
{
    for (size_t i = 0; i < GB_N(plots); i++)
        if (gb_file_rename_at(workfd, plots[i].file, outfd, plots[i].file, e) != 0)
            return -1;
    return 0;
}

/* The plot_data of INSTANCE_DIR, opened as an untrusted entry: no symlink,
 * a regular file only, never blocking. */
static int open_data(const char *inst, gb_err_t *e)
{
    int dfd = open(inst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return gb_err_set(e, "no plot_data in %s (give an instance dir, e.g. OUT/glassbox)", inst);
    int fd = openat(dfd, "plot_data", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dfd);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return gb_err_set(e, "no plot_data in %s (give an instance dir, e.g. OUT/glassbox; "
                             "a symlink or non-regular file is not read)", inst);
    }
    return fd;
}

static int plot_into(int outfd, int datafd, int logfd, const char *inst, gb_err_t *e)
{
    char work[64];
    int workfd = gb_dir_make_temp(outfd, work, sizeof work, e);
    if (workfd < 0)
        return -1;
    int rc = run_gnuplot(workfd, datafd, logfd);
    int ok = rc == 0 && publish_plots(workfd, outfd, e) == 0;
    gb_dir_remove_temp(outfd, work, workfd);
    if (rc == 127)
        return gb_err_set(e, "gnuplot is not installed (Debian: gnuplot-nox)");
    if (rc != 0)
        return gb_err_set(e, "gnuplot failed on the plot_data of %s; see gnuplot.log", inst);
    return ok ? write_index(outfd, inst, e) : -1;
}

gb_exit_t gb_cmd_plot(int argc, char **argv)
{
    const char *outdir;
    const gb_opt_t opts[] = {
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &outdir,
                      "where the plots go; without it, INSTANCE_DIR/plots"),
    };
    const gb_cmd_t cmd = {"plot", "INSTANCE_DIR [-o DIR]",
                          "Draws INSTANCE_DIR/plot_data (a Glassbox or AFL++ instance, e.g.\n"
                          "OUT/glassbox) as PNG plots with gnuplot, and an index.html.",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (a.npos != 1 || a.nrest)
        return gb_cli_error(GB_EXIT_USAGE, "plot", "usage: glassbox plot INSTANCE_DIR [-o DIR]");
    gb_err_t e;
    int datafd = open_data(a.pos[0], &e);
    if (datafd < 0)
        return gb_cli_fail("plot", e.msg);
    /* OUT given: the user's; else INSTANCE_DIR/plots, never through a link. */
    int outfd = outdir ? gb_dir_open(outdir, NULL, 1, &e) : gb_dir_open(a.pos[0], "plots", 1, &e);
    int logfd = outfd < 0 ? -1 : gb_file_open_at(outfd, "gnuplot.log", GB_OPEN_TRUNC, &e);
    int rc = logfd < 0 ? -1 : plot_into(outfd, datafd, logfd, a.pos[0], &e);
    close(datafd);
    if (logfd >= 0)
        close(logfd);
    if (outfd >= 0)
        close(outfd);
    if (rc != 0)
        return gb_cli_fail("plot", e.msg);
    char shown[PATH_MAX];
    gb_text_printable(shown, sizeof shown, outdir ? outdir : a.pos[0]);
    printf("%s%s/index.html\n", shown, outdir ? "" : "/plots");
    return GB_EXIT_OK;
}
