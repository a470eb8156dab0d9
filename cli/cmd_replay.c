/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox replay (being written). */
#include "cmds.h"

gb_exit_t gb_cmd_replay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return gb_cli_error(GB_EXIT_FAIL, "replay", "not built yet");
}
