/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, inserted chunk): a PNG-like file (signature; chunks of big-endian length,
 * type, data and a table-driven CRC-32 over type and data; END last) whose bug needs a
 * whole chunk the seed does not have: a colour map (CMAP) of more than 16 entries, after
 * the second chunk and before the end, with its CRC right. The seed is longer than the
 * demo's (five chunks), so the new chunk goes into the middle of it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CI_MAP = 16 };

static volatile uint32_t ci_sink;
static uint32_t ci_table[256];

static void ci_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        ci_table[i] = c;
    }
}

static uint32_t ci_crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = ci_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t ci_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The bug: the map's entries (3 bytes each) are copied into CI_MAP slots (abort stands
 * for the write past them). Only a map after the header and the first data-less chunk
 * is read. */
static void ci_map(const uint8_t *p, size_t n, unsigned index)
{
    if (index < 2 || n % 3)
        return;
    if (n / 3 > CI_MAP)
        abort();
    for (size_t i = 0; i < n; i++)
        ci_sink += p[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        ci_init();
        ready = 1;
    }
    if (size < 8 || memcmp(data, "\x89GBI\r\n\x1a\n", 8) != 0)
        return 0;
    size_t off = 8;
    for (unsigned index = 0; size - off >= 12; index++) {
        const uint8_t *c = data + off;
        uint32_t n = ci_be32(c);
        if (n > size - off - 12)
            return 0;
        if (ci_crc(c + 4, 4 + (size_t)n) != ci_be32(c + 8 + n))
            return 0; /* a chunk with a bad CRC ends the file */
        if (index == 0 && memcmp(c + 4, "HDR ", 4) != 0)
            return 0;
        if (memcmp(c + 4, "END ", 4) == 0)
            return 0;
        if (memcmp(c + 4, "CMAP", 4) == 0)
            ci_map(c + 8, n, index);
        else
            ci_sink += n;
        off += 12 + (size_t)n;
    }
    return 0;
}
