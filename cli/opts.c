/* SPDX-License-Identifier: Apache-2.0 */
/* Table-driven option parsing for the glassbox commands, and the helpers
 * every command shares (one-line errors, the joined command line). */
#include "opts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELP_LEFT 28  /* width of the "-t, --timeout MS" column */
#define HELP_WIDTH 80 /* --help fits an 80-column terminal */

typedef struct help_col {
    int at, start; /* the cursor's column; where the current line's text began */
} help_col_t;

/* Prints one piece that is never split, on a new line indented past the
 * left column when it would reach beyond HELP_WIDTH. */
static void put_piece(help_col_t *c, const char *s, int n)
{
    if (c->at > c->start && c->at + 1 + n > HELP_WIDTH) {
        printf("\n%*s", 2 + HELP_LEFT + 1, "");
        c->at = c->start = 2 + HELP_LEFT + 1;
    }
    c->at += printf("%s%.*s", c->at > c->start ? " " : "", n, s);
}

/* One option's help: the left column, its text word by word, then the
 * default from the table and the environment override, each kept whole. */
static void help_line(const gb_opt_t *o)
{
    char left[64], piece[128];
    snprintf(left, sizeof left, "%s%c%s--%s%s%s", o->shrt ? "-" : "", o->shrt ? o->shrt : ' ',
             o->shrt ? ", " : "  ", o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
    help_col_t c;
    c.at = c.start = printf("  %-*s ", HELP_LEFT, left);
    for (const char *p = o->help + strspn(o->help, " "); *p; p += strspn(p, " ")) {
        int n = (int)strcspn(p, " ");
        put_piece(&c, p, n);
        p += n;
    }
    int n = 0;
    if (o->kind == GB_OPT_UINT)
        n = snprintf(piece, sizeof piece, "(default %llu)", o->def);
    else if (o->kind == GB_OPT_STR && o->def_str)
        n = snprintf(piece, sizeof piece, "(default %s)", o->def_str);
    if (n > 0)
        put_piece(&c, piece, n < (int)sizeof piece ? n : (int)sizeof piece - 1);
    if (o->env && (n = snprintf(piece, sizeof piece, "[env %s]", o->env)) > 0)
        put_piece(&c, piece, n < (int)sizeof piece ? n : (int)sizeof piece - 1);
    putchar('\n');
}

void gb_opts_help(const gb_cmd_t *cmd)
{
    printf("usage: glassbox %s %s\n\n%s\n\noptions:\n", cmd->name, cmd->usage, cmd->summary);
    for (size_t i = 0; i < cmd->nopts; i++)
        help_line(&cmd->opts[i]);
    printf("  %-*s %s\n", HELP_LEFT, "-h, --help", "show this help");
}

static int set_value(const gb_cmd_t *cmd, const gb_opt_t *o, const char *v, const char *from)
{
    if (o->kind == GB_OPT_FLAG) {
        *(int *)o->dst = 1;
        return 0;
    }
    if (o->kind == GB_OPT_STR) {
        *(const char **)o->dst = v;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || !*v || *end || v[0] == '-') {
        fprintf(stderr, "glassbox %s: %s expects a non-negative number, got '%s'\n", cmd->name,
                from, v);
        return -1;
    }
    *(unsigned long long *)o->dst = n;
    return 0;
}

static const gb_opt_t *find(const gb_cmd_t *cmd, const char *a)
{
    for (size_t i = 0; i < cmd->nopts; i++) {
        const gb_opt_t *o = &cmd->opts[i];
        if ((a[1] != '-' && a[1] == o->shrt && a[2] == '\0') ||
            (a[1] == '-' && strcmp(a + 2, o->lng) == 0))
            return o;
    }
    return NULL;
}

static void apply_defaults(const gb_cmd_t *cmd)
{
    for (size_t i = 0; i < cmd->nopts; i++) {
        const gb_opt_t *o = &cmd->opts[i];
        if (o->kind == GB_OPT_UINT)
            *(unsigned long long *)o->dst = o->def;
        else if (o->kind == GB_OPT_STR)
            *(const char **)o->dst = o->def_str;
        else
            *(int *)o->dst = 0;
    }
}

static int apply_env(const gb_cmd_t *cmd)
{
    for (size_t i = 0; i < cmd->nopts; i++) {
        const gb_opt_t *o = &cmd->opts[i];
        const char *v = o->env ? getenv(o->env) : NULL;
        if (v && *v && set_value(cmd, o, v, o->env) != 0)
            return -1;
    }
    return 0;
}

gb_parsed_t gb_opts_parse(const gb_cmd_t *cmd, int argc, char **argv, const char **pos, int *npos,
                          char ***rest, int *nrest)
{
    *npos = 0;
    *rest = NULL;
    *nrest = 0;
    apply_defaults(cmd);
    if (apply_env(cmd) != 0)
        return GB_PARSED_BAD;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            *rest = argv + i + 1;
            *nrest = argc - i - 1;
            return GB_PARSED_OK;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            gb_opts_help(cmd);
            return GB_PARSED_HELP;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (*npos >= 8) {
                fprintf(stderr, "glassbox %s: too many arguments ('%s')\n", cmd->name, a);
                return GB_PARSED_BAD;
            }
            pos[(*npos)++] = a;
            continue;
        }
        const gb_opt_t *o = find(cmd, a);
        if (!o) {
            fprintf(stderr, "glassbox %s: unknown option '%s' (see --help)\n", cmd->name, a);
            return GB_PARSED_BAD;
        }
        const char *v = NULL;
        if (o->kind != GB_OPT_FLAG) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glassbox %s: %s needs a value\n", cmd->name, a);
                return GB_PARSED_BAD;
            }
            v = argv[++i];
        }
        if (set_value(cmd, o, v, a) != 0)
            return GB_PARSED_BAD;
    }
    return GB_PARSED_OK;
}

gb_parsed_t gb_opts_args(const gb_cmd_t *cmd, int argc, char **argv, gb_args_t *a)
{
    return gb_opts_parse(cmd, argc, argv, a->pos, &a->npos, &a->rest, &a->nrest);
}

gb_exit_t gb_opts_exit(gb_parsed_t p)
{
    return p == GB_PARSED_BAD ? GB_EXIT_USAGE : GB_EXIT_OK;
}

gb_exit_t gb_cli_error(gb_exit_t code, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "glassbox %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

gb_exit_t gb_cli_fail(const char *cmd, const char *msg)
{
    return gb_cli_error(GB_EXIT_FAIL, cmd, "%s", msg);
}

char *gb_cli_join(int argc, char **argv)
{
    static char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf, "glassbox ");
    for (int i = 0; i < argc && n < sizeof buf - 1; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", argv[i]);
    return buf;
}
