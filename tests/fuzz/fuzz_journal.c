/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.journal: the expansion journal's reader (corpus/journal.c,
 * OUT/NAME/.expanded, docs/campaign.md) on any text. Every whole line in
 * the form the writer appends ("q ID" or "c ID") is marked; no id at or
 * past the reader's cap is; in a text of writer lines only, the expansion
 * the writer died in is the last begun ("Q ID", "C ID") that no finished
 * line of it nor a stop ("x") followed; appending to a journal without a
 * file fails cleanly. */
#include <stdint.h>
#include <string.h>

#include "corpus.h"
#include "fz.h"

#define FZ_CAP (1u << 26) /* journal.c's JOURNAL_MAX_ID: larger ids are ignored */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "q 123" or "c 0" exactly as gb_journal_append writes it, or "Q 5" /
 * "C 5" as gb_journal_begin does (no newline): 1 with the kind and id (a
 * begin record's kind letter in *letter), else 0. */
static int writer_line(const uint8_t *s, size_t n, gb_stored_t *kind, uint64_t *id, char *letter)
{
    if (n < 3 || !s[0] || !strchr("qcQC", s[0]) || s[1] != ' ' || n > 12)
        return 0;
    *letter = (char)s[0];
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *kind = s[0] == 'c' || s[0] == 'C' ? GB_STORED_CRASH : GB_STORED_QUEUE;
    *id = v;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_journal_t *j;
    gb_err_t e;
    if (gb_journal_from_text(data, size, &j, &e) != 0)
        return 0; /* out of memory */
    int only_writer = 1, open = 0; /* the model of the begun expansion */
    gb_stored_t open_kind = GB_STORED_QUEUE;
    uint64_t open_id = 0;
    for (size_t i = 0; i < size;) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        if (!nl)
            break; /* a torn last line: not a finished expansion */
        size_t n = (size_t)(nl - (data + i));
        gb_stored_t kind;
        uint64_t id;
        char letter;
        if (n == 1 && data[i] == 'x') {
            open = 0;
        } else if (!writer_line(data + i, n, &kind, &id, &letter)) {
            only_writer = 0;
        } else {
            id = id > UINT32_MAX ? UINT32_MAX : id; /* the reader's clamp */
            if (letter == 'Q' || letter == 'C') {
                open = 1, open_kind = kind, open_id = id;
            } else {
                if (id < FZ_CAP)
                    FZ_CHECK(gb_journal_done(j, kind, (uint32_t)id));
                if (open && open_kind == kind && open_id == id)
                    open = 0;
            }
        }
        i += n + 1;
    }
    gb_stored_t dk;
    uint32_t did;
    int died = gb_journal_died_in(j, &dk, &did);
    if (only_writer)
        FZ_CHECK(died == open && (!died || (dk == open_kind && did == open_id)));
    FZ_CHECK(!gb_journal_done(j, GB_STORED_QUEUE, FZ_CAP));
    FZ_CHECK(!gb_journal_done(j, GB_STORED_CRASH, UINT32_MAX));
    FZ_CHECK(gb_journal_append(j, GB_STORED_QUEUE, 1, &e) == -1 && e.msg[0]);
    FZ_CHECK(gb_journal_begin(j, GB_STORED_QUEUE, 1, &e) == -1 && e.msg[0]);
    FZ_CHECK(gb_journal_stop(j, &e) == -1 && e.msg[0]);
    gb_journal_close(j);
    return 0;
}
