/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a bitwise CRC-32 (no table, as small bootloaders compute it) over a firmware image
 * header shaped like U-Boot's legacy uImage, cut to 24 bytes; its compression field is
 * trusted once the header CRC holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Header (big-endian): magic, header CRC (computed with this field zero), data size, data
 * CRC, os, arch, type, compression, name[8]. */
enum { FW_HDR_LEN = 24, FW_HCRC_AT = 4, FW_COMP_AT = 19, FW_NCOMP = 4 };
#define FW_MAGIC 0x27051956u

static volatile uint32_t fw_sink;

/* Reflected 0xEDB88320 one bit at a time; the mask keeps it branch-free like Hacker's
 * Delight's crc32b. */
static uint32_t fw_crc32_update(uint32_t c, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c;
}

static uint32_t fw_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The CRC of the header with its own CRC field taken as zero. */
static uint32_t fw_header_crc(const uint8_t *h)
{
    static const uint8_t zero[4];
    uint32_t c = fw_crc32_update(0xffffffffu, h, FW_HCRC_AT);
    c = fw_crc32_update(c, zero, 4);
    c = fw_crc32_update(c, h + FW_HCRC_AT + 4, FW_HDR_LEN - FW_HCRC_AT - 4);
    return c ^ 0xffffffffu;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FW_HDR_LEN || fw_rd32(data) != FW_MAGIC)
        return 0;
    if (fw_header_crc(data) != fw_rd32(data + FW_HCRC_AT))
        return 0;
    uint32_t len = fw_rd32(data + 8);
    if (len > size - FW_HDR_LEN)
        return 0;
    /* The bug: the decompressor table has FW_NCOMP entries and the index is not checked
     * (abort stands for the call through a pointer read past it). */
    if (data[FW_COMP_AT] >= FW_NCOMP)
        abort();
    const uint8_t *img = data + FW_HDR_LEN;
    if ((fw_crc32_update(0xffffffffu, img, len) ^ 0xffffffffu) != fw_rd32(data + 12))
        return 0;
    fw_sink += len ? img[0] : 0;
    return 0;
}
