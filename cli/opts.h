/* SPDX-License-Identifier: Apache-2.0 */
/* One option table per command drives parsing, --help and the GLASSBOX_*
 * environment overrides. */
#ifndef GB_CLI_OPTS_H
#define GB_CLI_OPTS_H

#include <stddef.h>

typedef enum gb_opt_kind { GB_OPT_STR, GB_OPT_UINT, GB_OPT_FLAG } gb_opt_kind_t;

typedef struct gb_opt {
    char shrt;          /* 0 = none */
    const char *lng;    /* without the leading "--" */
    gb_opt_kind_t kind;
    const char *arg;    /* argument name for --help */
    const char *env;    /* GLASSBOX_* override, or NULL */
    const char *help;
    void *dst;          /* const char **, unsigned long long *, or int * */
} gb_opt_t;

typedef struct gb_cmd {
    const char *name;
    const char *usage;   /* after "glassbox NAME " */
    const char *summary; /* one paragraph */
    const gb_opt_t *opts;
    size_t nopts;
} gb_cmd_t;

/* Parses argv[1..] (argv[0] is the command name). Positional arguments
 * before "--" go to pos[], those after it to rest[]. Prints a one-line
 * error and returns -1 on bad usage; returns 1 after printing --help. */
int gb_opts_parse(const gb_cmd_t *cmd, int argc, char **argv, const char **pos, int *npos,
                  char ***rest, int *nrest);
void gb_opts_help(const gb_cmd_t *cmd);

/* What gb_opts_args leaves: positional arguments, and those after "--". */
typedef struct gb_args {
    const char *pos[8];
    int npos;
    char **rest;
    int nrest;
} gb_args_t;

/* gb_opts_parse into `a`. Returns -1 when the command should go on, else
 * the exit code to return at once (0 after --help, 2 on bad usage). */
int gb_opts_args(const gb_cmd_t *cmd, int argc, char **argv, gb_args_t *a);

/* Prints "glassbox CMD: MSG" on stderr and returns 1. */
int gb_cli_fail(const char *cmd, const char *msg);

/* argv joined with spaces (for fuzzer_stats' command_line); static buffer. */
char *gb_cli_join(int argc, char **argv);

#endif
