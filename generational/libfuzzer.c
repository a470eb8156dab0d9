/* SPDX-License-Identifier: Apache-2.0 */
/* Exchange with a libFuzzer corpus directory (flat, files named by the
 * SHA-1 of their content), so `./h.lf CORPUS -reload=1` and Glassbox feed
 * each other: every input Glassbox queues is written there, and new files
 * there are imported like a peer's queue entries. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "search_int.h"

/* Writes `it` as DIR/<sha1> unless it is there: staged in our .tmp (same
 * file system: a rename libFuzzer never sees half-done), else in DIR under
 * a dot name. */
int gb_lf_export(gb_search_t *s, const gb_item_t *it, gb_err_t *e)
{
    if (!s->o.libfuzzer_dir)
        return 0;
    char sha[41], path[4200];
    gb_sha1_hex(it->data, it->len, sha);
    snprintf(path, sizeof path, "%s/%s", s->o.libfuzzer_dir, sha);
    gb_hset_add(&s->lf_names, gb_hash64(sha, 40, 0));
    if (access(path, F_OK) == 0)
        return 0;
    if (gb_write_atomic(path, gb_campaign_tmpdir(s->camp), it->data, it->len, NULL) == 0)
        return 0;
    if (gb_write_atomic(path, s->o.libfuzzer_dir, it->data, it->len, e) != 0)
        return -1;
    return 0;
}

static int import_file(gb_search_t *s, const char *name, gb_err_t *e)
{
    char path[4400], desc[64];
    snprintf(path, sizeof path, "%s/%s", s->o.libfuzzer_dir, name);
    snprintf(desc, sizeof desc, "sync:libfuzzer,sha1:%.12s", name);
    return gb_sync_import(s, path, desc, e);
}

int gb_lf_import(gb_search_t *s, gb_err_t *e)
{
    if (!s->o.libfuzzer_dir)
        return 0;
    DIR *d = opendir(s->o.libfuzzer_dir);
    if (!d)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot read %s", s->o.libfuzzer_dir);
    struct dirent *de;
    int r = 0;
    while (r == 0 && !s->stop && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        int fresh = gb_hset_add(&s->lf_names, gb_hash64(de->d_name, strlen(de->d_name), 0));
        if (fresh < 0)
            r = gb_err_set(e, "out of memory");
        else if (fresh)
            r = import_file(s, de->d_name, e);
    }
    closedir(d);
    return r;
}
