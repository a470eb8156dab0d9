/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.synced: the peers' read cursors (fuzz-bridge/peers.c,
 * OUT/NAME/.synced/PEER, docs/campaign.md) on any bytes. A cursor read
 * back must be one the writer can write again and read the same: a name
 * without a newline, and "<id>\n<name>\n" round-trips. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bridge_int.h"
#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t next;
    char *name;
    if (gb_peers_cursor_parse(data, size, &next, &name) != 0)
        return 0; /* out of memory */
    FZ_CHECK(!name || !strchr(name, '\n'));
    /* As save_cursor writes it. */
    char body[GB_CURSOR_MAX + 32];
    int n = snprintf(body, sizeof body, "%u\n%s\n", next, name ? name : "");
    FZ_CHECK(n > 0 && (size_t)n < sizeof body);
    uint32_t next2;
    char *name2;
    if (gb_peers_cursor_parse((const uint8_t *)body, (size_t)n, &next2, &name2) == 0) {
        FZ_CHECK(next2 == next);
        /* The writer writes no name as an empty line: the two mean the same. */
        FZ_CHECK(strcmp(name ? name : "", name2 ? name2 : "") == 0);
        gb_free(name2);
    }
    gb_free(name);
    return 0;
}
