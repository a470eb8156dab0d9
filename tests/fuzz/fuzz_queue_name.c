/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.queue_name: the AFL++ entry-name parser (corpus/campaign.c
 * gb_entry_id) that lists our own and every peer's queue/, crashes/ and
 * hangs/ (fuzz-bridge/peers.c reads peers through it). Peers name their
 * files as they like. A name it takes must start "id:" and the decimal
 * digits of its id, and the id must leave room for the next one (the
 * cursor of a peer's queue is id + 1). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "fz.h"

#define FZ_NAME_MAX 255 /* NAME_MAX: no directory entry is longer */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char name[FZ_NAME_MAX + 1];
    size_t n = size < FZ_NAME_MAX ? size : FZ_NAME_MAX;
    memcpy(name, data, n);
    name[n] = '\0';
    uint32_t id;
    if (!gb_entry_id(name, &id))
        return 0;
    FZ_CHECK(id < UINT32_MAX);
    FZ_CHECK(strncmp(name, "id:", 3) == 0 && name[3] >= '0' && name[3] <= '9');
    uint64_t v = 0;
    for (const char *p = name + 3; *p >= '0' && *p <= '9' && v <= UINT32_MAX; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    FZ_CHECK(v == id);
    /* The name our own campaign would give that id reads back as it. */
    char own[64];
    uint32_t back;
    snprintf(own, sizeof own, "id:%06u,src:%06u,op:gen,pos:0", id, id);
    FZ_CHECK(gb_entry_id(own, &back) && back == id);
    return 0;
}
