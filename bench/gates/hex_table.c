/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, decoding table): an Intel-HEX-like line ":" then hex digit pairs,
 * decoded through a 256-entry nibble table (0xff for anything but 0-9, A-F, a-f). The
 * record's 16-bit type must be 0x5a17 and its length byte more than the 32-byte
 * buffer; the seed is a data record of another type. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HX_BUF = 32, HX_MAX = 128 };

static volatile uint32_t hx_sink;

#define X 0xff
static const uint8_t hx_nib[256] = {
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    X, X, X, X, X, X, X, 10, 11, 12, 13, 14, 15, X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X,  X,  X,  X,  X,  X,  X,  X,  X,  X, X, X, X, X, X, X, X};
#undef X

/* The bug: the record's data is copied into HX_BUF bytes by its length byte (abort
 * stands for the write past them). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t rec[HX_MAX];
    size_t n = 0;
    if (size < 1 || data[0] != ':')
        return 0;
    for (size_t i = 1; i + 1 < size && n < HX_MAX; i += 2) {
        uint8_t hi = hx_nib[data[i]], lo = hx_nib[data[i + 1]];
        if (hi == 0xff || lo == 0xff)
            break;
        rec[n++] = (uint8_t)(hi << 4 | lo);
    }
    if (n < 3 || (rec[0] << 8 | rec[1]) != 0x5a17)
        return 0;
    if (rec[2] > HX_BUF)
        abort();
    for (size_t i = 3; i < n; i++)
        hx_sink += rec[i];
    return 0;
}
