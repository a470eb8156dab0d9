/* SPDX-License-Identifier: Apache-2.0 */
/* What the search tells a person (each kind of trouble once) and how it
 * waits out a full disk. */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "search_int.h"

void gb_notice(gb_search_t *s, gb_note_t kind, const char *msg)
{
    if (s->noticed & (unsigned)kind)
        return;
    s->noticed |= (unsigned)kind;
    if (s->o.on_notice)
        s->o.on_notice(msg, s->o.status_ctx);
}

int gb_wait_for_space(gb_search_t *s, int err)
{
    if ((err != ENOSPC && err != EDQUOT) || gb_search_out_of_time(s))
        return 0; /* out of time while the disk is full: the write's error ends the run */
    char msg[4300];
    snprintf(msg, sizeof msg,
             "the disk holding %s is full: writing paused, retrying every %d s "
             "(nothing is lost; free some space to go on)",
             gb_campaign_dir(s->camp), GB_DISK_RETRY_S);
    gb_notice(s, GB_NOTE_DISK, msg);
    struct timespec ts = {GB_DISK_RETRY_S, 0};
    nanosleep(&ts, NULL);
    return 1;
}
