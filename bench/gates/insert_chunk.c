/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a chunk that has to be inserted in the middle of a valid file: a transparency
 * chunk, allowed only between the palette and the pixel data (PNG's tRNS rule). The seed
 * has palette and data but no transparency. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "GBCK", then chunks: type (4), length (LE16), data. HEAD first, PALT, TRNS, DATA, END. */
enum { IC_CHUNK_HDR = 6, IC_MAX_PAL = 256 };

static volatile uint32_t ic_sink;

typedef struct ic_state {
    int head, data;
    size_t npal, ntrns;
    uint8_t trns[IC_MAX_PAL];
} ic_state_t;

/* The bug: alpha is copied for every transparency entry into the palette's npal slots
 * (abort stands for the write past them). */
static void ic_decode(ic_state_t *s, const uint8_t *p, size_t n)
{
    if (s->ntrns > s->npal)
        abort();
    for (size_t i = 0; i < n; i++)
        ic_sink += p[i] < s->ntrns ? s->trns[p[i]] : 255u;
}

/* 0 to go on, -1 for a chunk out of place. */
static int ic_chunk(ic_state_t *s, const uint8_t *type, const uint8_t *p, size_t n)
{
    if (memcmp(type, "HEAD", 4) == 0)
        return s->head ? -1 : (s->head = 1, 0);
    if (!s->head)
        return -1;
    if (memcmp(type, "PALT", 4) == 0) {
        if (s->npal || s->data || n % 3 || n == 0 || n / 3 > IC_MAX_PAL)
            return -1;
        s->npal = n / 3;
    } else if (memcmp(type, "TRNS", 4) == 0) {
        /* Checked against the largest palette, not this one. */
        if (!s->npal || s->data || n > IC_MAX_PAL)
            return -1;
        memcpy(s->trns, p, n);
        s->ntrns = n;
    } else if (memcmp(type, "DATA", 4) == 0) {
        s->data = 1;
        ic_decode(s, p, n);
    } else {
        ic_sink += n; /* TEXT and unknown chunks: skipped */
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || memcmp(data, "GBCK", 4) != 0)
        return 0;
    ic_state_t s = {0};
    size_t off = 4;
    while (size - off >= IC_CHUNK_HDR) {
        const uint8_t *t = data + off;
        size_t n = (size_t)(t[4] | t[5] << 8);
        if (n > size - off - IC_CHUNK_HDR)
            return 0;
        if (memcmp(t, "END ", 4) == 0 || ic_chunk(&s, t, t + IC_CHUNK_HDR, n) != 0)
            return 0;
        off += IC_CHUNK_HDR + n;
    }
    return 0;
}
