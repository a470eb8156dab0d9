/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs that score alike, and only one worth expanding (peers flooding
 * the worklist): byte 0 picks one of 24 handlers, each a compare of byte 1
 * with 'a' + k. The seeds take both directions of every handler but one, the
 * handler whose "equal" side aborts, and take that one's other side only.
 * Every first input through a handler covers as many new blocks as any
 * other, so the score cannot tell them apart; the uncovered direction
 * next to one input's path can. */
#include <stdint.h>
#include <stdlib.h>

static volatile unsigned sink;

/* the abort's handler runs this on its other side, so that its first
 * input covers as many new blocks as any other handler's (t##k is not
 * run there) */
__attribute__((noinline)) static void x(void) { sink *= 3; }

#define H(k)                                                                                 \
    __attribute__((noinline)) static void t##k(void) { sink += k + 1; }                      \
    __attribute__((noinline)) static void e##k(void) { sink ^= k + 1; }                      \
    __attribute__((noinline)) static void h##k(const uint8_t *d)                             \
    {                                                                                        \
        if (d[1] == 'a' + k) {                                                               \
            if (k == 7)                                                                      \
                abort();                                                                     \
            t##k();                                                                          \
        } else {                                                                             \
            e##k();                                                                          \
            if (k == 7)                                                                      \
                x();                                                                         \
        }                                                                                    \
    }
H(0) H(1) H(2) H(3) H(4) H(5) H(6) H(7) H(8) H(9) H(10) H(11) H(12) H(13) H(14) H(15)
H(16) H(17) H(18) H(19) H(20) H(21) H(22) H(23)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    switch (data[0]) {
#define C(k) case 'A' + k: h##k(data); break;
    C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15)
    C(16) C(17) C(18) C(19) C(20) C(21) C(22) C(23)
#undef C
    default:
        break;
    }
    return 0;
}
