/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a length field that must match the data: an entry's name length, kept in its header
 * and again in its trailer (as ZIP keeps it in the local header and the central directory),
 * must equal the NUL-terminated name in its fixed 32-byte field. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Entry: magic 0x71c7 (LE), mode (LE16), name length, flags, size (LE32), name[32], data,
 * then a trailer: 'N', the name length again. */
enum { NL_HDR_LEN = 42, NL_NAME_AT = 10, NL_NAME_FIELD = 32, NL_TRAILER = 2, NL_PATH_MAX = 24 };

static volatile uint32_t nl_sink;

/* Joins the name to the extraction directory. The bug: the buffer holds NL_PATH_MAX bytes
 * and the length was only checked against the name (abort stands for the overflow). */
static void nl_extract(const uint8_t *name, size_t namelen)
{
    char path[NL_PATH_MAX];
    if (namelen >= NL_PATH_MAX)
        abort();
    memcpy(path, name, namelen);
    path[namelen] = '\0';
    nl_sink += (uint8_t)path[0];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    while (size - off >= NL_HDR_LEN + NL_TRAILER) {
        const uint8_t *h = data + off;
        if (h[0] != 0xc7 || h[1] != 0x71)
            return 0;
        size_t namelen = h[4];
        size_t len = (size_t)h[6] | (size_t)h[7] << 8 | (size_t)h[8] << 16 | (size_t)h[9] << 24;
        char name[NL_NAME_FIELD + 1];
        memcpy(name, h + NL_NAME_AT, NL_NAME_FIELD);
        name[NL_NAME_FIELD] = '\0';
        if (len > size - off - NL_HDR_LEN - NL_TRAILER)
            return 0;
        /* Lengths that disagree with each other or with the name mean a corrupt entry
         * (Android's reader checks the two ZIP copies since the "Master Key" bug). */
        const uint8_t *t = h + NL_HDR_LEN + len;
        if (namelen == 0 || namelen != strlen(name) || t[0] != 'N' || t[1] != namelen)
            return 0;
        nl_extract(h + NL_NAME_AT, namelen);
        off += NL_HDR_LEN + len + NL_TRAILER;
    }
    return 0;
}
