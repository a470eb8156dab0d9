/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a hex address read with sscanf("%x") from a flash programmer's script; only an
 * address in the 16-byte option-byte region (0x1fffc000..0x1fffc00f, as on STM32F4) takes
 * the path with the bug, and the seed only writes main flash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "GBFLASH 1", then lines "erase ADDR" or "write ADDR HEXBYTES". */
enum { FL_LINE_MAX = 128, FL_OPT_LEN = 16 };
#define FL_FLASH_BASE 0x08000000u
#define FL_FLASH_END 0x08020000u
#define FL_OPT_BASE 0x1fffc000u

static volatile uint32_t fl_sink;

/* The hex byte pairs after the address; -1 on a malformed pair. */
static int fl_bytes(const char *s, uint8_t *out, size_t max, size_t *n)
{
    *n = 0;
    while (*s == ' ')
        s++;
    while (*s && *n < max) {
        unsigned b;
        char pair[3] = {s[0], s[0] ? s[1] : '\0', '\0'};
        if (sscanf(pair, "%2x", &b) != 1)
            return -1;
        out[(*n)++] = (uint8_t)b;
        s += pair[1] ? 2 : 1;
    }
    return 0;
}

/* The bug: option bytes are copied at their offset with no check that they fit the
 * region (abort stands for the write past the 16-byte shadow). */
static void fl_write(uint32_t addr, const uint8_t *b, size_t n)
{
    if (addr >= FL_FLASH_BASE && addr < FL_FLASH_END && n <= FL_FLASH_END - addr) {
        fl_sink += n ? b[0] : 0;
    } else if (addr >= FL_OPT_BASE && addr < FL_OPT_BASE + FL_OPT_LEN) {
        if (addr - FL_OPT_BASE + n > FL_OPT_LEN)
            abort();
        fl_sink += n ? b[0] : 0;
    }
}

static int fl_line(const char *line)
{
    unsigned addr;
    uint8_t bytes[FL_LINE_MAX / 2];
    size_t n;
    if (strncmp(line, "erase ", 6) == 0)
        return sscanf(line + 6, "%x", &addr) == 1 ? 0 : -1;
    if (strncmp(line, "write ", 6) != 0 || sscanf(line + 6, "%x", &addr) != 1)
        return -1;
    const char *s = strchr(line + 6, ' ');
    if (!s || fl_bytes(s, bytes, sizeof bytes, &n) != 0)
        return -1;
    fl_write(addr, bytes, n);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[FL_LINE_MAX + 1];
    size_t off = 0;
    int first = 1;
    while (off < size) {
        size_t n = 0;
        while (off + n < size && data[off + n] != '\n')
            n++;
        if (n > FL_LINE_MAX)
            return 0;
        memcpy(line, data + off, n);
        line[n] = '\0';
        off += n + 1;
        if (first) {
            if (strcmp(line, "GBFLASH 1") != 0)
                return 0;
            first = 0;
        } else if (n > 0 && fl_line(line) != 0) {
            return 0;
        }
    }
    return 0;
}
