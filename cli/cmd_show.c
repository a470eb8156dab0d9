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

static const char *const kind_name[] = {"branch", "pin", "switch", "check"}; /* enum gbt_pc_kind */

/* One line per entry: "J KIND taken T: b3 b4 len0", the input bytes its
 * condition depends on (the length variable's as len0..len2). */
static int print_inputs(const gb_trace_t *t, gb_err_t *e)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    for (size_t j = 0; j < info.pcs; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        uint64_t *offs;
        size_t n;
        if (gb_trace_pc_inputs(t, j, &offs, &n) != 0)
            return gb_err_set(e, "out of memory");
        printf("%zu %s taken %u:", j, (unsigned)pc.kind < 4 ? kind_name[pc.kind] : "?", pc.taken);
        for (size_t i = 0; i < n; i++) {
            char name[32];
            gb_input_name(offs[i], name, sizeof name);
            printf(" %s", name);
        }
        putchar('\n');
        gb_free(offs);
    }
    return 0;
}

gb_exit_t gb_cmd_show(int argc, char **argv)
{
    int blocks, inputs;
    const gb_opt_t opts[] = {
        GB_OPTION_FLAG(0, "blocks", &blocks, "print the visited block ids instead, one per line"),
        GB_OPTION_FLAG(0, "inputs", &inputs,
                       "print each entry's input bytes instead: 'J KIND taken T: b3 b4 len0'"),
    };
    const gb_cmd_t cmd = {"show", "[--blocks|--inputs] FILE.gbt",
                          "Prints a trace's path constraint as an SMT-LIB2 script: one\n"
                          "declaration per input byte, one assertion per entry (pins marked).",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (a.npos != 1 || a.nrest)
        return gb_cli_error(GB_EXIT_USAGE, "show",
                            "usage: glassbox show [--blocks|--inputs] FILE.gbt");
    gb_err_t e;
    gb_trace_t *t;
    if (gb_trace_load(a.pos[0], 0, &t, &e) != 0)
        return gb_cli_fail("show", e.msg);
    int rc = 0;
    if (blocks)
        print_blocks(t);
    else if (inputs)
        rc = print_inputs(t, &e);
    else
        rc = gb_trace_print_smt2(t, stdout, &e);
    gb_trace_free(t);
    return rc == 0 ? GB_EXIT_OK : gb_cli_fail("show", e.msg);
}

