/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox plot: PNG plots of an instance's plot_data (coverage, execs/s,
 * queue, crashes over time) and an index.html, drawn by gnuplot. Works on
 * AFL++ instance directories too: the columns are AFL++ 4.04c's. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_base.h"

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

static int write_script(FILE *f, const char *data, const char *outdir)
{
    /* noenhanced: names like edges_found are text, not a subscript */
    fprintf(f, "set terminal png size 800,360 noenhanced\nset datafile separator ','\n");
    fprintf(f, "set xlabel 'seconds'\nset grid\nset key left top\n");
    for (size_t i = 0; i < GB_N(plots); i++) {
        fprintf(f, "set output '%s/%s'\nset title '%s'\nset ylabel '%s'\n", outdir,
                plots[i].file, plots[i].title, plots[i].ylabel);
        fprintf(f, "plot '%s' using %d:%d with lines lw 2 title '%s'", data, COL_TIME,
                plots[i].cols[0], plots[i].names[0]);
        if (plots[i].cols[1])
            fprintf(f, ", '' using %d:%d with lines lw 2 title '%s'", COL_TIME, plots[i].cols[1],
                    plots[i].names[1]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

static int write_index(const char *outdir, const char *dir, gb_err_t *e)
{
    char path[PATH_MAX + 16], body[8192];
    int n = snprintf(body, sizeof body,
                     "<!doctype html>\n<html><head><meta charset='utf-8'><title>%s</title>"
                     "</head>\n<body><h1>%s</h1>\n",
                     dir, dir);
    for (size_t i = 0; i < GB_N(plots) && n > 0 && (size_t)n < sizeof body; i++)
        n += snprintf(body + n, sizeof body - (size_t)n, "<p><img src='%s' alt='%s'></p>\n",
                      plots[i].file, plots[i].title);
    if (n <= 0 || (size_t)n >= sizeof body - 32)
        return gb_err_set(e, "directory name too long for index.html");
    n += snprintf(body + n, sizeof body - (size_t)n, "</body></html>\n");
    snprintf(path, sizeof path, "%s/index.html", outdir);
    return gb_write_atomic(path, outdir, body, (size_t)n, e);
}

static int run_gnuplot(const char *script, const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (freopen(log, "w", stderr) == NULL)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
    char data[PATH_MAX], def[PATH_MAX], script[PATH_MAX + 32];
    snprintf(data, sizeof data, "%s/plot_data", a.pos[0]);
    if (access(data, R_OK) != 0)
        return gb_cli_error(GB_EXIT_FAIL, "plot",
                            "no plot_data in %s (give an instance dir, "
                            "e.g. OUT/glassbox)",
                            a.pos[0]);
    snprintf(def, sizeof def, "%s/plots", a.pos[0]);
    if (!outdir)
        outdir = def;
    gb_err_t e;
    if (gb_mkdirs(outdir, &e) != 0)
        return gb_cli_fail("plot", e.msg);
    snprintf(script, sizeof script, "%s/.plot.gp", outdir);
    FILE *f = fopen(script, "w");
    if (!f || write_script(f, data, outdir) != 0) {
        if (f)
            fclose(f);
        return gb_cli_error(GB_EXIT_FAIL, "plot", "cannot write %s", script);
    }
    fclose(f);
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/gnuplot.log", outdir);
    int rc = run_gnuplot(script, log);
    unlink(script);
    if (rc == 127)
        return gb_cli_fail("plot", "gnuplot is not installed (Debian: gnuplot-nox)");
    if (rc != 0)
        return gb_cli_error(GB_EXIT_FAIL, "plot", "gnuplot failed on %s; see %s", data, log);
    if (write_index(outdir, a.pos[0], &e) != 0)
        return gb_cli_fail("plot", e.msg);
    printf("%s/index.html\n", outdir);
    return GB_EXIT_OK;
}
