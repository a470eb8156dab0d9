/* SPDX-License-Identifier: Apache-2.0 */
/* One option table per command drives parsing, --help and the GLASSBOX_*
 * environment overrides, and holds each option's default. */
#ifndef GB_CLI_OPTS_H
#define GB_CLI_OPTS_H

#include <stddef.h>

typedef enum gb_opt_kind {
    GB_OPT_STR,  /* the last value given */
    GB_OPT_UINT, /* a number, the last given */
    GB_OPT_FLAG, /* 1 if given */
    GB_OPT_LIST, /* every value given, in order (a gb_strlist_t) */
} gb_opt_kind_t;

/* The values of a GB_OPT_LIST option, or the positional arguments of a
 * command that takes any number (gb_cmd_t.pos_list). Zero it before the
 * first parse; gb_opts_parse empties it, gb_strlist_free frees it. */
typedef struct gb_strlist {
    const char **v;
    size_t n, cap;
} gb_strlist_t;

void gb_strlist_free(gb_strlist_t *l);

/* AFL++'s spellings a GB_OPT_UINT row may accept (GB_OPTION_UINT_EX), for
 * the options AFL++ users type from habit; other numbers stay plain. */
typedef enum gb_opt_forms {
    GB_OPT_NONE_IS_0 = 1u << 0, /* "none" means 0 (afl-fuzz -m none) */
    GB_OPT_PLUS = 1u << 1,      /* "N+" sets *plus to 1 (afl-fuzz -t N+) */
    GB_OPT_RUN = 1u << 2,       /* GB_OPT_LIST: the words after its value, up
                                   to the next option, are values too, so a
                                   shell glob works: -i SYNC/<star>/queue */
} gb_opt_forms_t;

/* libFuzzer's -error_exitcode default: what a run stopped by a crash exits with
 * (--exit-on-crash), so scripts written for libFuzzer read Glassbox the same way. */
#define GB_EXIT_CRASH_STATUS 77

/* The exit codes of every command. */
typedef enum gb_exit {
    GB_EXIT_OK = 0,
    GB_EXIT_FAIL = 1,                     /* the command failed; one line on stderr says why */
    GB_EXIT_USAGE = 2,                    /* bad usage; one line on stderr says what is wrong */
    GB_EXIT_CRASH = GB_EXIT_CRASH_STATUS, /* --exit-on-crash stopped at a crash */
} gb_exit_t;

/* What parsing a command line found. */
typedef enum gb_parsed {
    GB_PARSED_OK,   /* the command goes on */
    GB_PARSED_HELP, /* --help was printed */
    GB_PARSED_BAD,  /* bad usage; a one-line error was printed */
} gb_parsed_t;

/* An option. Its default is stored into *dst before the environment and
 * the command line are read, and --help prints it after `help`: a number
 * always, a string unless NULL, a flag never (flags start off). */
typedef struct gb_opt {
    char shrt;       /* 0 = none */
    const char *lng; /* without the leading "--" */
    gb_opt_kind_t kind;
    const char *arg;        /* argument name for --help */
    const char *env;        /* GLASSBOX_* override, or NULL */
    const char *help;       /* one sentence, without the default; --help wraps it */
    void *dst;              /* const char **, unsigned long long *, int * or gb_strlist_t * */
    unsigned long long def; /* GB_OPT_UINT's default */
    const char *def_str;    /* GB_OPT_STR's default, or NULL */
    unsigned forms;         /* gb_opt_forms_t bits */
    int *plus;              /* GB_OPT_PLUS: 1 after "N+", else 0 */
} gb_opt_t;

/* Table rows, one per kind. Defaults come from base/gb_config.h. */
/* (clang-format would spread each initializer over four lines.) */
/* clang-format off */
#define GB_OPTION_STR(shrt, lng, arg, env, def, dst, help)                                         \
    {shrt, lng, GB_OPT_STR, arg, env, help, dst, 0, def, 0, NULL}
#define GB_OPTION_UINT(shrt, lng, arg, env, def, dst, help)                                        \
    {shrt, lng, GB_OPT_UINT, arg, env, help, dst, def, NULL, 0, NULL}
#define GB_OPTION_UINT_EX(shrt, lng, arg, env, def, dst, forms, plus, help)                        \
    {shrt, lng, GB_OPT_UINT, arg, env, help, dst, def, NULL, forms, plus}
#define GB_OPTION_FLAG(shrt, lng, dst, help)                                                       \
    {shrt, lng, GB_OPT_FLAG, NULL, NULL, help, dst, 0, NULL, 0, NULL}
#define GB_OPTION_LIST(shrt, lng, arg, dst, forms, help)                                           \
    {shrt, lng, GB_OPT_LIST, arg, NULL, help, dst, 0, NULL, forms, NULL}
/* clang-format on */

/* A gb_config.h value as a string literal, for help text that states one. */
#define GB_OPT_XSTR(x) GB_OPT_STR_(x)
#define GB_OPT_STR_(x) #x

/* GB_MAX_INPUT, the largest seed, as help text states it (opts.c checks
 * that the two agree). */
#define GB_OPT_MAX_INPUT "1 MiB"

typedef struct gb_cmd {
    const char *name;
    const char *usage;   /* after "glassbox NAME " */
    const char *summary; /* one paragraph */
    const gb_opt_t *opts;
    size_t nopts;
    gb_strlist_t *pos_list; /* non-NULL: every positional argument goes here,
                               none to pos[] (a command that takes thousands) */
} gb_cmd_t;

/* Parses argv[1..] (argv[0] is the command name) after storing every
 * option's default and the GLASSBOX_* overrides, with getopt_long: short
 * options combine (-qV 10) and take their value attached (-t100), long
 * ones as --timeout=100 or --timeout 100; a long name must be spelled out
 * whole. A positional argument before "--" joins the GB_OPT_RUN list
 * whose value it follows, else goes to cmd->pos_list when that is set,
 * else to pos[] in order (at most 8). Everything after the first "--"
 * goes to rest[] untouched (never parsed: the target's own arguments);
 * argv is not reordered. Prints a one-line error on bad usage,
 * or the help for -h/--help. May be called again (getopt is reset). */
gb_parsed_t gb_opts_parse(const gb_cmd_t *cmd, int argc, char **argv, const char **pos, int *npos,
                          char ***rest, int *nrest);
void gb_opts_help(const gb_cmd_t *cmd);

/* 1 if the last gb_opts_parse set the option whose destination is `dst`
 * from the environment or the command line, 0 if it kept its default (a
 * peer's own default can then stay in force). */
int gb_opts_given(const void *dst);

/* What gb_opts_args leaves: positional arguments, and those after "--". */
typedef struct gb_args {
    const char *pos[8];
    int npos;
    char **rest;
    int nrest;
} gb_args_t;

/* gb_opts_parse into `a`. */
gb_parsed_t gb_opts_args(const gb_cmd_t *cmd, int argc, char **argv, gb_args_t *a);

/* The exit code for what parsing found: OK after --help, USAGE when bad. */
gb_exit_t gb_opts_exit(gb_parsed_t p);

/* Prints "glassbox CMD: " and the formatted message as one line on stderr
 * and returns `code`: `return gb_cli_error(GB_EXIT_USAGE, "fuzz", ...)`. */
gb_exit_t gb_cli_error(gb_exit_t code, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* gb_cli_error(GB_EXIT_FAIL, cmd, "%s", msg). */
gb_exit_t gb_cli_fail(const char *cmd, const char *msg);

/* A corpus gb_seed_skip_fn: "glassbox CMD: warning: skipped seed PATH:
 * WHY" on stderr, with CMD the ctx (a string). */
void gb_cli_seed_skipped(void *cmd, const char *path, const char *why);

/* "glassbox " and a subcommand's argv joined with spaces (fuzzer_stats'
 * command_line); static buffer. */
char *gb_cli_join(int argc, char **argv);

#endif
