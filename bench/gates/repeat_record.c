/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a record that must repeat: a header block split over a HDRS record and CONT
 * records (as HTTP/2 does with CONTINUATION frames); only five CONTs in a row reach the
 * bug, and the seed has one. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records: type (4 bytes), length (1 byte), payload. */
enum { RR_REC_HDR = 5, RR_MAX_FRAGS = 4 };

static volatile uint32_t rr_sink;

typedef struct rr_block {
    const uint8_t *frag[RR_MAX_FRAGS];
    size_t nfrag;
    int open;
} rr_block_t;

/* The bug: fragments are stored without checking the slots left (abort stands for the
 * write past frag[]). */
static void rr_add_frag(rr_block_t *b, const uint8_t *p)
{
    if (b->nfrag >= RR_MAX_FRAGS)
        abort();
    b->frag[b->nfrag++] = p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rr_block_t b = {0};
    size_t off = 0;
    while (size - off >= RR_REC_HDR) {
        const uint8_t *t = data + off;
        size_t len = t[4];
        if (len > size - off - RR_REC_HDR)
            return 0;
        if (memcmp(t, "CONT", 4) == 0) {
            if (!b.open)
                return 0; /* a continuation must follow a header block */
            rr_add_frag(&b, t + RR_REC_HDR);
        } else {
            b.open = 0; /* anything else ends the header block */
            b.nfrag = 0;
            if (memcmp(t, "HDRS", 4) == 0)
                b.open = 1;
            else if (memcmp(t, "BODY", 4) == 0)
                rr_sink += len;
            else if (memcmp(t, "END ", 4) == 0)
                return 0;
        }
        off += RR_REC_HDR + len;
    }
    return 0;
}
