/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin (being written). */
#include "cmds.h"

gb_exit_t gb_cmd_cmin(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return gb_cli_error(GB_EXIT_FAIL, "cmin", "not built yet");
}
