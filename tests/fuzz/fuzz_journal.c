/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.journal: the expansion journal's reader (corpus/journal.c,
 * OUT/NAME/.expanded, docs/campaign.md) on any text. Every whole line in
 * the form the writer appends ("q ID" or "c ID") is marked; no id at or
 * past the reader's cap is; appending to a journal without a file fails
 * cleanly. */
#include <stdint.h>
#include <string.h>

#include "corpus.h"
#include "fz.h"

#define FZ_CAP (1u << 26) /* journal.c's JOURNAL_MAX_ID: larger ids are ignored */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "q 123" or "c 0" exactly as gb_journal_append writes it (no newline):
 * 1 with the kind and id, else 0. */
static int writer_line(const uint8_t *s, size_t n, gb_stored_t *kind, uint64_t *id)
{
    if (n < 3 || (s[0] != 'q' && s[0] != 'c') || s[1] != ' ' || n > 12)
        return 0;
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *kind = s[0] == 'c' ? GB_STORED_CRASH : GB_STORED_QUEUE;
    *id = v;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_journal_t *j;
    gb_err_t e;
    if (gb_journal_from_text(data, size, &j, &e) != 0)
        return 0; /* out of memory */
    for (size_t i = 0; i < size;) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        if (!nl)
            break; /* a torn last line: not a finished expansion */
        size_t n = (size_t)(nl - (data + i));
        gb_stored_t kind;
        uint64_t id;
        if (writer_line(data + i, n, &kind, &id) && id < FZ_CAP)
            FZ_CHECK(gb_journal_done(j, kind, (uint32_t)id));
        i += n + 1;
    }
    FZ_CHECK(!gb_journal_done(j, GB_STORED_QUEUE, FZ_CAP));
    FZ_CHECK(!gb_journal_done(j, GB_STORED_CRASH, UINT32_MAX));
    FZ_CHECK(gb_journal_append(j, GB_STORED_QUEUE, 1, &e) == -1 && e.msg[0]);
    gb_journal_close(j);
    return 0;
}
