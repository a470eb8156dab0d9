/* SPDX-License-Identifier: Apache-2.0 */
/* The glassbox subcommands: one file each (cmd_*.c), dispatched by main.c.
 * Each returns the process exit code (gb_exit_t, opts.h). */
#ifndef GB_CLI_CMDS_H
#define GB_CLI_CMDS_H

#include "gb_config.h" /* the defaults the option tables state */
#include "opts.h"

#define GB_N(a) (sizeof(a) / sizeof((a)[0]))

gb_exit_t gb_cmd_fuzz(int argc, char **argv);
gb_exit_t gb_cmd_trace(int argc, char **argv);
gb_exit_t gb_cmd_show(int argc, char **argv);
gb_exit_t gb_cmd_campaign(int argc, char **argv);
gb_exit_t gb_cmd_build(int argc, char **argv);
gb_exit_t gb_cmd_plot(int argc, char **argv);
gb_exit_t gb_cmd_solve(int argc, char **argv);
gb_exit_t gb_cmd_cmin(int argc, char **argv);
gb_exit_t gb_cmd_tmin(int argc, char **argv);
gb_exit_t gb_cmd_triage(int argc, char **argv);
gb_exit_t gb_cmd_replay(int argc, char **argv);
gb_exit_t gb_cmd_reach(int argc, char **argv);

#endif
