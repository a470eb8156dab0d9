/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox show: a trace's path constraint as SMT-LIB2, or its blocks. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "symbolic.h"

static void print_blocks(const gb_trace_t *t)
{
    size_t n;
    const uint32_t *b = gb_trace_blocks(t, &n);
    for (size_t i = 0; i < n; i++)
        printf("%u\n", b[i]);
}

gb_exit_t gb_cmd_show(int argc, char **argv)
{
    int blocks;
    const gb_opt_t opts[] = {
        GB_OPTION_FLAG(0, "blocks", &blocks, "print the visited block ids instead, one per line"),
    };
    const gb_cmd_t cmd = {"show", "[--blocks] FILE.gbt",
                          "Prints a trace's path constraint as an SMT-LIB2 script: one\n"
                          "declaration per input byte, one assertion per entry (pins marked).",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (a.npos != 1 || a.nrest)
        return gb_cli_error(GB_EXIT_USAGE, "show", "usage: glassbox show [--blocks] FILE.gbt");
    gb_err_t e;
    gb_trace_t *t;
    if (gb_trace_load(a.pos[0], 0, &t, &e) != 0)
        return gb_cli_fail("show", e.msg);
    int rc = 0;
    if (blocks)
        print_blocks(t);
    else
        rc = gb_trace_print_smt2(t, stdout, &e);
    gb_trace_free(t);
    return rc == 0 ? GB_EXIT_OK : gb_cli_fail("show", e.msg);
}

