/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: hex header fields read with sscanf("%8x") from a cpio "newc" archive; the name and
 * file sizes are added in 32 bits, and only a sum that wraps passes the bounds check. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "070701", then 13 fields of 8 hex digits: ino mode uid gid nlink mtime filesize
 * devmajor devminor rdevmajor rdevminor namesize check. */
enum { CP_HDR_LEN = 110, CP_NFIELDS = 13, CP_FILESIZE = 6, CP_NAMESIZE = 11 };

static volatile uint32_t cp_sink;

static int cp_field(const uint8_t *h, int i, uint32_t *v)
{
    char f[9];
    memcpy(f, h + 6 + i * 8, 8);
    f[8] = '\0';
    unsigned x;
    if (sscanf(f, "%8x", &x) != 1)
        return -1;
    *v = x;
    return 0;
}

static uint32_t cp_pad4(uint32_t n)
{
    return (n + 3u) & ~3u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    while (size - off >= CP_HDR_LEN) {
        const uint8_t *h = data + off;
        uint32_t v[CP_NFIELDS];
        if (memcmp(h, "070701", 6) != 0)
            return 0;
        for (int i = 0; i < CP_NFIELDS; i++)
            if (cp_field(h, i, &v[i]) != 0)
                return 0;
        uint32_t name_end = cp_pad4(CP_HDR_LEN + v[CP_NAMESIZE]);
        /* The bug: the entry's end is computed in 32 bits, so a huge file size wraps it
         * back inside the archive (abort stands for the copy of v[CP_FILESIZE] bytes). */
        uint32_t entry_end = cp_pad4(name_end + v[CP_FILESIZE]);
        if (v[CP_NAMESIZE] == 0 || name_end > size - off || entry_end > size - off)
            return 0;
        if ((uint64_t)name_end + v[CP_FILESIZE] > UINT32_MAX)
            abort();
        if (v[CP_NAMESIZE] == 11 && memcmp(h + CP_HDR_LEN, "TRAILER!!!", 10) == 0)
            return 0;
        cp_sink += v[CP_FILESIZE] ? h[name_end] : 0;
        off += entry_end;
    }
    return 0;
}
