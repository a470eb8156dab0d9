/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, token sequence): a text format of words separated by spaces or
 * newlines. A block is BEGIN, ITEM as many times as it has items, then END; the bug
 * needs a block of more than four items. The seed is plain letters: every keyword is an
 * insertion, and the repeated one is a loop in the tokenizer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { TR_SLOTS = 4 };

static volatile size_t tr_sink;

static int tr_is(const uint8_t *w, size_t n, const char *kw)
{
    return n == strlen(kw) && memcmp(w, kw, n) == 0;
}

/* The bug: END copies the block's items into TR_SLOTS slots (abort stands for the
 * write past them). */
static void tr_commit(size_t items)
{
    if (items > TR_SLOTS)
        abort();
    tr_sink += items;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int in_block = 0;
    size_t items = 0, at = 0;
    while (at < size) {
        while (at < size && (data[at] == ' ' || data[at] == '\n'))
            at++;
        size_t start = at;
        while (at < size && data[at] != ' ' && data[at] != '\n')
            at++;
        const uint8_t *w = data + start;
        size_t n = at - start;
        if (n == 0)
            break;
        if (!in_block) {
            if (tr_is(w, n, "BEGIN")) {
                in_block = 1;
                items = 0;
            }
        } else if (tr_is(w, n, "ITEM")) {
            items++;
        } else if (tr_is(w, n, "END")) {
            tr_commit(items);
            in_block = 0;
        } else {
            in_block = 0; /* anything else ends the block unread */
        }
        tr_sink += n;
    }
    return 0;
}
