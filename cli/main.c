/* SPDX-License-Identifier: Apache-2.0 */
/* The glassbox command: dispatches to the subcommands (cmd_*.c). The CLI
 * is the only place that prints errors and chooses exit codes. */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "gb_version.h"
#include "symbolic.h"

/* One line per subcommand; a new command adds its line here. */
static const struct {
    const char *name;
    gb_exit_t (*run)(int argc, char **argv);
} commands[] = {
    {"fuzz", gb_cmd_fuzz},
    {"trace", gb_cmd_trace},
    {"show", gb_cmd_show},
    {"campaign", gb_cmd_campaign},
    {"build", gb_cmd_build},
    {"plot", gb_cmd_plot},
    {"solve", gb_cmd_solve},
    {"cmin", gb_cmd_cmin},
    {"tmin", gb_cmd_tmin},
    {"triage", gb_cmd_triage},
    {"replay", gb_cmd_replay},
    {"reach", gb_cmd_reach},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: glassbox COMMAND [options]\n\n"
               "commands:\n"
               "  fuzz    generational whitebox search (-i SEEDS -o OUT -- TRACE_BIN COV_BIN)\n"
               "  trace   run a trace build on one input and write its trace\n"
               "  show    print a trace's path constraint as SMT-LIB2\n"
               "  campaign  afl-fuzz, libFuzzer and Glassbox workers on one sync dir\n"
               "  plot    PNG plots of an instance's plot_data, and an index.html\n"
               "  build   a harness's trace, cov, libFuzzer and ASan builds\n"
               "  solve   expand recorded traces offline; per-stage solver counts and time\n"
               "  cmin    keep the smallest inputs that cover what a corpus covers\n"
               "  tmin    shrink an input, keeping its crash state or its coverage\n"
               "  triage  crashes into distinct bugs, each with a report and a small input\n"
               "  replay  run inputs and say how each ended\n"
               "  reach   directed search for source lines: reached, out of reach within a\n"
               "          loop bound, or unknown\n\n"
               "'glassbox COMMAND --help' describes each. Build targets with glassbox-cc.\n"
               "'glassbox --version' states the version, the commit and the Z3 and LLVM used.\n");
}

#ifdef GB_JEMALLOC
/* The allocator is jemalloc (cli/CMakeLists.txt): in glibc's heap, the
 * blocks Z3 allocates and frees in its larger queries left fragments that
 * malloc_trim could not give back, and a png_read worker's RSS grew from
 * about 110 to 190 MiB in half an hour (bench/soak). Freed pages go back
 * to the system after a second, not kept as MADV_FREE pages that still
 * count as resident. jemalloc reads this at its first allocation. */
const char *malloc_conf = "dirty_decay_ms:1000,muzzy_decay_ms:0";
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return GB_EXIT_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
        usage(stdout);
        return GB_EXIT_OK;
    }
    if (!strcmp(c, "--version") || !strcmp(c, "version")) {
        printf("glassbox %s\nZ3 %s, LLVM %s\n", GB_VERSION_FULL, gb_z3_version(), GB_LLVM_VERSION);
        return GB_EXIT_OK;
    }
    for (size_t i = 0; i < GB_N(commands); i++)
        if (!strcmp(c, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "glassbox: unknown command '%s' (try glassbox --help)\n", c);
    return GB_EXIT_USAGE;
}
