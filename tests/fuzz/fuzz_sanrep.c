/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.sanrep: the sanitizer-report parser of triage (triage/sanrep.c,
 * docs/triage.md) on any text, and the crash state made from the frames it
 * read. The text comes from the crashing target, so anything goes: the
 * parser reads exactly `size` bytes (libFuzzer's buffer has no NUL after
 * it), every field it fills is NUL-ended within its array, and the stack is
 * capped. Supersedes the random mutation loop of tests/triage's
 * test_garbage, which stays as a quick check in the unsanitized suite. */
#include <stdint.h>
#include <string.h>

#include "fz.h"
#include "gb_config.h"
#include "triage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_ENDED(a) (memchr((a), '\0', sizeof(a)) != NULL)

static void check_frames(const gb_sanrep_t *r)
{
    FZ_CHECK(r->nframes <= GB_CRASH_MAX_FRAMES);
    int named = 0;
    for (size_t i = 0; i < r->nframes; i++) {
        const gb_frame_t *f = &r->frames[i];
        FZ_CHECK(FZ_ENDED(f->func) && FZ_ENDED(f->file) && FZ_ENDED(f->module));
        named |= f->func[0] != '\0';
        (void)gb_frame_ignored(f);
    }
    FZ_CHECK(r->symbolized == named);
    size_t idx[GB_CRASH_STATE_FRAMES_MAX];
    unsigned max = 1 + (unsigned)(r->nframes % GB_CRASH_STATE_FRAMES_MAX);
    size_t k = gb_crash_state_frames(r->frames, r->nframes, max, idx);
    FZ_CHECK(k <= max);
    for (size_t i = 0; i < k; i++)
        FZ_CHECK(idx[i] < r->nframes && (i == 0 || idx[i - 1] < idx[i]));
    char state[600], line[600];
    gb_crash_state(r->frames, r->nframes, max, state, sizeof state);
    FZ_CHECK(FZ_ENDED(state));
    gb_crash_state_line(state, line, sizeof line);
    FZ_CHECK(FZ_ENDED(line));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_sanrep_t r;
    gb_err_t e;
    if (gb_sanrep_parse((const char *)data, size, &r, &e) != 0)
        return 0; /* out of memory */
    FZ_CHECK(FZ_ENDED(r.sanitizer) && FZ_ENDED(r.type));
    if (!r.found)
        FZ_CHECK(r.nframes == 0 && !r.sanitizer[0] && !r.type[0] && !r.has_address);
    check_frames(&r);
    gb_sanrep_clear(&r);
    return 0;
}
