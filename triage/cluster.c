/* SPDX-License-Identifier: Apache-2.0 */
/* Likely bugs: which buckets are probably one bug (docs/triage.md,
 * "Likely bugs"). A bucket is exact, (type, state); this is the hint
 * beside it, as CASR's clustering gives one. */
#include <string.h>

#include "gb_config.h"
#include "triage_int.h"

/* The first `frames` frames of a state: its first lines. */
static size_t top_len(const char *state, int frames)
{
    const char *p = state;
    for (int i = 0; i < frames; i++) {
        const char *nl = strchr(p, '\n');
        if (!nl)
            return strlen(state);
        if (i + 1 == frames)
            return (size_t)(nl - state);
        p = nl + 1;
    }
    return 0;
}

/* A deliberate stop (abort, a failed assert) is raised where checks
 * funnel: a fatal-error helper, or Magma's canary, is the top frame of
 * every bug it reports, and its abort line their fault line. The caller
 * says which check failed, so such buckets link on their top two frames
 * (Magma's libxml2 pile: XML009 and XML017 were one likely bug by their
 * shared canary frame). */
static int deliberate(const gb_bucket_t *b)
{
    return strcmp(b->type, "abort") == 0;
}

/* The top state frame, when it has a source line: where the fault is. */
static const gb_frame_t *fault_frame(const gb_bucket_t *b)
{
    size_t idx[GB_CRASH_STATE_FRAMES_MAX];
    size_t k = gb_crash_state_frames(b->frames, b->nframes, b->state_frames, idx);
    if (k == 0)
        return NULL;
    const gb_frame_t *f = &b->frames[idx[0]];
    return f->file[0] && f->line > 0 ? f : NULL;
}

const char *gb_triage_link(const gb_bucket_t *a, const gb_bucket_t *b)
{
    int stop = deliberate(a) || deliberate(b), frames = stop ? 2 : 1;
    size_t la = top_len(a->state, frames), lb = top_len(b->state, frames);
    if (la > 0 && la == lb && memcmp(a->state, b->state, la) == 0 && strcmp(a->type, b->type) == 0)
        return stop ? "same type and top two frames" : "same type and top frame";
    if (stop)
        return NULL;
    const gb_frame_t *fa = fault_frame(a), *fb = fault_frame(b);
    if (fa && fb && fa->line == fb->line && strcmp(fa->file, fb->file) == 0)
        return "same fault line";
    return NULL;
}

static size_t root(size_t *up, size_t i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

size_t gb_triage_clusters(const gb_bucket_t *b, size_t n, size_t *cluster)
{
    size_t *up = gb_calloc(n ? n : 1, sizeof *up), next = 0;
    for (size_t i = 0; up && i < n; i++)
        up[i] = i;
    for (size_t i = 0; up && i < n; i++)
        for (size_t j = 0; j < i; j++) {
            size_t ri = root(up, i), rj = root(up, j);
            if (ri != rj && gb_triage_link(&b[i], &b[j]))
                up[ri > rj ? ri : rj] = ri < rj ? ri : rj;
        }
    /* The smaller index is always the root: each cluster's root is its
     * first bucket, numbered when it comes, before any other of its. */
    for (size_t i = 0; i < n; i++) {
        size_t r = up ? root(up, i) : i;
        cluster[i] = r == i ? ++next : cluster[r];
    }
    gb_free(up);
    return next;
}

void gb_triage_group(gb_triage_result_t *res)
{
    size_t n = res->nbuckets, *bug = gb_calloc(n ? n : 1, sizeof *bug);
    res->likely_bugs = bug ? gb_triage_clusters(res->buckets, n, bug) : n;
    for (size_t i = 0; i < n; i++)
        res->buckets[i].likely_bug = bug ? bug[i] : i + 1;
    gb_free(bug);
}
