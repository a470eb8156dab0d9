/* SPDX-License-Identifier: Apache-2.0 */
/* AFL++ alone stalls here: a 4-byte magic compared as one 32-bit word, then
 * a table-driven CRC-32 over the rest stored after the magic, then a
 * 3-byte keyword. Layout: magic[4] "GOX1", crc[4] (LE), data[8+]. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!crc_table[1])
        crc_init();
    if (size < 12 || rd32(data) != 0x31584f47u) /* "GOX1" */
        return 0;
    if (crc32(data + 8, size - 8) != rd32(data + 4))
        return 0;
    if (data[8] == 'B' && data[9] == 'U' && data[10] == 'G')
        abort();
    return 0;
}
