/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: an 8-byte file magic matched byte by byte against a table, as format sniffers do
 * (file(1), image loaders). The seed is a PNG; the bug is in the rarely seen ar branch. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MB_MAGIC_LEN = 8, MB_PNG = 0, MB_AR, MB_NFORMATS };

static const uint8_t mb_magics[MB_NFORMATS][MB_MAGIC_LEN] = {
    {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'},
    {'!', '<', 'a', 'r', 'c', 'h', '>', '\n'},
};

static volatile uint32_t mb_sink;

static int mb_sniff(const uint8_t *p)
{
    for (int f = 0; f < MB_NFORMATS; f++) {
        int i = 0;
        while (i < MB_MAGIC_LEN && p[i] == mb_magics[f][i])
            i++;
        if (i == MB_MAGIC_LEN)
            return f;
    }
    return -1;
}

/* PNG: walk the chunk lengths only (the sniffer's job ends at naming the format). */
static void mb_png(const uint8_t *p, size_t n)
{
    size_t off = 0;
    while (n - off >= 12) {
        uint32_t len = (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
                       (uint32_t)p[off + 2] << 8 | p[off + 3];
        if (len > n - off - 12)
            return;
        mb_sink += p[off + 4];
        off += 12 + len;
    }
}

/* ar: the bug is GNU's "/" symbol-table member, whose table this reader indexes without a
 * bounds check (abort stands for the out-of-bounds read). */
static void mb_ar(const uint8_t *p, size_t n)
{
    if (n >= 60 && p[0] == '/')
        abort();
    mb_sink += n ? p[0] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < MB_MAGIC_LEN)
        return 0;
    int f = mb_sniff(data);
    if (f == MB_PNG)
        mb_png(data + MB_MAGIC_LEN, size - MB_MAGIC_LEN);
    else if (f == MB_AR)
        mb_ar(data + MB_MAGIC_LEN, size - MB_MAGIC_LEN);
    return 0;
}
