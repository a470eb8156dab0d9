/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox tmin (being written). */
#include "cmds.h"

gb_exit_t gb_cmd_tmin(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return gb_cli_error(GB_EXIT_FAIL, "tmin", "not built yet");
}
