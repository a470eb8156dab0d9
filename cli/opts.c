/* SPDX-License-Identifier: Apache-2.0 */
/* Table-driven option parsing for the glassbox commands (getopt_long, its
 * tables built from each command's gb_opt_t rows), and the helpers every
 * command shares (one-line errors, the joined command line). */
#include "opts.h"

#include "gb_base.h"
#include "gb_config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(GB_MAX_INPUT == 1u << 20, "GB_OPT_MAX_INPUT says 1 MiB");

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
    const char *forms = (o->forms & GB_OPT_NONE_IS_0) ? "|none"
                        : (o->forms & GB_OPT_PLUS)    ? "[+]"
                                                      : "";
    snprintf(left, sizeof left, "%s%c%s--%s%s%s%s", o->shrt ? "-" : "", o->shrt ? o->shrt : ' ',
             o->shrt ? ", " : "  ", o->lng, o->arg ? " " : "", o->arg ? o->arg : "", forms);
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

/* The number of a GB_OPT_UINT value, with the AFL++ forms the row allows:
 * "none" for 0, a trailing '+' recorded in *o->plus. */
static int parse_uint(const gb_opt_t *o, const char *v, unsigned long long *n)
{
    if ((o->forms & GB_OPT_NONE_IS_0) && strcmp(v, "none") == 0) {
        *n = 0;
        return 0;
    }
    char *end;
    errno = 0;
    *n = strtoull(v, &end, 10);
    int plus = (o->forms & GB_OPT_PLUS) && end > v && end[0] == '+' && end[1] == '\0';
    if (errno || end == v || (*end && !plus) || v[0] == '-' || v[0] == '+')
        return -1;
    if (o->plus)
        *o->plus = plus;
    return 0;
}

/* Stores one value; `from` names where it came from (-t, --timeout or
 * GLASSBOX_...) for the one-line error. */
/* The options the last parse set from the environment or the command
 * line (not from their defaults), by destination; see gb_opts_given. */
static const void *given[64];
static size_t ngiven;

int gb_opts_given(const void *dst)
{
    for (size_t i = 0; i < ngiven; i++)
        if (given[i] == dst)
            return 1;
    return 0;
}

void gb_strlist_free(gb_strlist_t *l)
{
    free(l->v);
    *l = (gb_strlist_t){0};
}

static int strlist_add(const char *cmd, gb_strlist_t *l, const char *v)
{
    if (gb_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 16) != 0) {
        fprintf(stderr, "glassbox %s: out of memory\n", cmd);
        return -1;
    }
    l->v[l->n++] = v;
    return 0;
}

static int set_value(const gb_cmd_t *cmd, const gb_opt_t *o, const char *v, const char *from)
{
    if (ngiven < sizeof given / sizeof given[0])
        given[ngiven++] = o->dst;
    if (o->kind == GB_OPT_LIST)
        return strlist_add(cmd->name, o->dst, v);
    if (o->kind == GB_OPT_FLAG) {
        *(int *)o->dst = 1;
        return 0;
    }
    if (o->kind == GB_OPT_STR) {
        *(const char **)o->dst = v;
        return 0;
    }
    unsigned long long n;
    if (parse_uint(o, v, &n) != 0) {
        fprintf(stderr, "glassbox %s: %s expects a non-negative number%s, got '%s'\n", cmd->name,
                from, o->forms & GB_OPT_NONE_IS_0 ? " or none" : "", v);
        return -1;
    }
    *(unsigned long long *)o->dst = n;
    return 0;
}

static void apply_defaults(const gb_cmd_t *cmd)
{
    for (size_t i = 0; i < cmd->nopts; i++) {
        const gb_opt_t *o = &cmd->opts[i];
        if (o->kind == GB_OPT_UINT)
            *(unsigned long long *)o->dst = o->def;
        else if (o->kind == GB_OPT_STR)
            *(const char **)o->dst = o->def_str;
        else if (o->kind == GB_OPT_LIST)
            ((gb_strlist_t *)o->dst)->n = 0;
        else
            *(int *)o->dst = 0;
        if (o->plus)
            *o->plus = 0;
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

/* getopt_long's tables for one command. A long option's val is LONG_BASE
 * + its row, above every char, so a row is found from either form. */
#define LONG_BASE 256
#define MAX_OPTS 64

typedef struct getopt_tab {
    char shorts[2 + 3 * MAX_OPTS + 2];
    struct option longs[MAX_OPTS + 2];
} getopt_tab_t;

/* "-:" first: non-options come back in order as code 1 (so pos[] keeps
 * them, argv is not permuted and "--" still ends the scan whatever
 * POSIXLY_CORRECT says), and a missing value comes back as ':'. */
static int build_tab(const gb_cmd_t *cmd, getopt_tab_t *t)
{
    if (cmd->nopts > MAX_OPTS)
        return -1;
    size_t k = 0;
    t->shorts[k++] = '-';
    t->shorts[k++] = ':';
    for (size_t i = 0; i < cmd->nopts; i++) {
        const gb_opt_t *o = &cmd->opts[i];
        int has_arg = o->kind == GB_OPT_FLAG ? no_argument : required_argument;
        if (o->shrt) {
            t->shorts[k++] = o->shrt;
            if (has_arg)
                t->shorts[k++] = ':';
        }
        t->longs[i] = (struct option){o->lng, has_arg, NULL, LONG_BASE + (int)i};
    }
    t->shorts[k++] = 'h';
    t->shorts[k] = '\0';
    t->longs[cmd->nopts] = (struct option){"help", no_argument, NULL, 'h'};
    t->longs[cmd->nopts + 1] = (struct option){NULL, 0, NULL, 0};
    return 0;
}

static const gb_opt_t *find_short(const gb_cmd_t *cmd, int c)
{
    for (size_t i = 0; i < cmd->nopts; i++)
        if (cmd->opts[i].shrt == c)
            return &cmd->opts[i];
    return NULL;
}

/* "-t" or "--timeout", as the user wrote it, for messages. */
static void opt_name(const gb_cmd_t *cmd, int code, char *buf, size_t cap)
{
    if (code >= LONG_BASE && (size_t)(code - LONG_BASE) < cmd->nopts)
        snprintf(buf, cap, "--%s", cmd->opts[code - LONG_BASE].lng);
    else
        snprintf(buf, cap, "-%c", code);
}

/* getopt_long accepts any unambiguous prefix of a long name; we do not, so
 * that adding an option never changes what an existing command line means.
 * `arg` is the argv element the long option came from. */
static int is_whole_name(const char *arg, const char *lng)
{
    size_t n = strlen(lng);
    return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, lng, n) == 0 &&
           (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* The one-line error for what getopt_long refused ('?' or ':'). `arg` is
 * the argv element it was reading. */
static void bad_option(const gb_cmd_t *cmd, int c, const char *arg)
{
    char name[80];
    if (c == ':') {
        opt_name(cmd, optopt, name, sizeof name);
        fprintf(stderr, "glassbox %s: %s needs a value\n", cmd->name, name);
    } else if (optopt >= LONG_BASE) {
        opt_name(cmd, optopt, name, sizeof name);
        fprintf(stderr, "glassbox %s: %s takes no value, got '%s'\n", cmd->name, name, arg);
    } else if (optopt) {
        fprintf(stderr, "glassbox %s: unknown option '-%c' (see --help)\n", cmd->name, optopt);
    } else {
        fprintf(stderr, "glassbox %s: unknown option '%s' (see --help)\n", cmd->name, arg);
    }
}

typedef struct parse_out {
    const char **pos;
    int *npos;
    gb_strlist_t *run; /* the GB_OPT_RUN list whose value came last, or NULL */
} parse_out_t;

/* One thing getopt_long returned: 0 to go on, 1 after --help, -1 when bad. */
static int take(const gb_cmd_t *cmd, int c, const char *arg, parse_out_t *po)
{
    if (c == 'h' && (arg[1] != '-' || is_whole_name(arg, "help"))) {
        gb_opts_help(cmd);
        return 1;
    }
    if (c == 1 && po->run)
        return strlist_add(cmd->name, po->run, optarg);
    if (c == 1 && cmd->pos_list)
        return strlist_add(cmd->name, cmd->pos_list, optarg);
    if (c == 1) {
        if (*po->npos >= 8) {
            fprintf(stderr, "glassbox %s: too many arguments ('%s')\n", cmd->name, optarg);
            return -1;
        }
        po->pos[(*po->npos)++] = optarg;
        return 0;
    }
    if (c == '?' || c == ':') {
        bad_option(cmd, c, arg);
        return -1;
    }
    const gb_opt_t *o = c >= LONG_BASE ? &cmd->opts[c - LONG_BASE] : find_short(cmd, c);
    if (!o || c == 'h' || (c >= LONG_BASE && !is_whole_name(arg, o->lng))) {
        optopt = 0; /* reported as unknown, as an abbreviation was before getopt */
        bad_option(cmd, '?', arg);
        return -1;
    }
    char name[80];
    opt_name(cmd, c, name, sizeof name);
    po->run = o->kind == GB_OPT_LIST && (o->forms & GB_OPT_RUN) ? o->dst : NULL;
    return set_value(cmd, o, o->kind == GB_OPT_FLAG ? NULL : optarg, name);
}

gb_parsed_t gb_opts_parse(const gb_cmd_t *cmd, int argc, char **argv, const char **pos, int *npos,
                          char ***rest, int *nrest)
{
    *npos = 0;
    *rest = NULL;
    *nrest = 0;
    ngiven = 0;
    apply_defaults(cmd);
    if (cmd->pos_list)
        cmd->pos_list->n = 0;
    if (apply_env(cmd) != 0)
        return GB_PARSED_BAD;
    getopt_tab_t t;
    if (build_tab(cmd, &t) != 0) {
        fprintf(stderr, "glassbox %s: too many options in its table\n", cmd->name);
        return GB_PARSED_BAD;
    }
    parse_out_t po = {pos, npos, NULL};
    optind = 0; /* a full reset: a command may parse more than once (tests) */
    opterr = 0; /* our own one-line messages */
    for (;;) {
        int at = optind ? optind : 1; /* the element getopt reads next */
        int c = getopt_long(argc, argv, t.shorts, t.longs, NULL);
        if (c == -1) {
            if (at < argc && strcmp(argv[at], "--") == 0) {
                *rest = argv + at + 1;
                *nrest = argc - at - 1;
            }
            return GB_PARSED_OK;
        }
        int r = take(cmd, c, at < argc ? argv[at] : "", &po);
        if (r != 0)
            return r > 0 ? GB_PARSED_HELP : GB_PARSED_BAD;
    }
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

void gb_cli_seed_skipped(void *cmd, const char *path, const char *why)
{
    fprintf(stderr, "glassbox %s: warning: skipped seed %s: %s\n", (const char *)cmd, path, why);
}

char *gb_cli_join(int argc, char **argv)
{
    static char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf, "glassbox ");
    for (int i = 0; i < argc && n < sizeof buf - 1; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", argv[i]);
    return buf;
}
