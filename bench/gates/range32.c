/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a 32-bit device id that must lie in a narrow range (one product family:
 * 0x12345600..0x123456ff) before that family's loader runs; the seed is another family's. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Header: "GBFW", device id (LE32), bank, revision, payload length (LE16). */
enum { RG_HDR_LEN = 12 };

static volatile uint32_t rg_sink;

static uint32_t rg_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The other family has 8 flash banks. */
static void rg_family_a(uint8_t bank, const uint8_t *p, size_t n)
{
    if (bank >= 8)
        return;
    rg_sink += bank + (n ? p[0] : 0u);
}

/* This family has 4 banks. The bug: its loader was copied from family A's and checks
 * against 8 (abort stands for the write to a bank that does not exist). */
static void rg_family_b(uint8_t bank, const uint8_t *p, size_t n)
{
    if (bank >= 8)
        return;
    if (bank >= 4)
        abort();
    rg_sink += bank + (n ? p[0] : 0u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < RG_HDR_LEN || memcmp(data, "GBFW", 4) != 0)
        return 0;
    uint32_t id = rg_rd32(data + 4);
    size_t len = (size_t)(data[10] | data[11] << 8);
    if (len > size - RG_HDR_LEN)
        return 0;
    const uint8_t *p = data + RG_HDR_LEN;
    if (id >= 0x7e3c9100u && id <= 0x7e3c91ffu)
        rg_family_a(data[8], p, len);
    else if (id >= 0x12345600u && id <= 0x123456ffu)
        rg_family_b(data[8], p, len);
    return 0;
}
