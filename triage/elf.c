/* SPDX-License-Identifier: Apache-2.0 */
/* The GNU build id of a binary, for reports: it says which exact build a
 * crash was seen on, where a path alone may have been rebuilt since. Read
 * from the PT_NOTE segments (ELF64 and ELF32, either byte order), with
 * every offset checked against the file. */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "triage.h"

/* Program headers and notes read at most (a build id note sits in the
 * first pages of any binary). */
#define NOTE_MAX (64u << 10)

typedef struct elf_in {
    int fd;
    int is64, swap;
} elf_in_t;

static uint32_t rd32(const elf_in_t *f, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return f->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const elf_in_t *f, const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return f->swap ? __builtin_bswap64(v) : v;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
    ssize_t r = pread(fd, buf, n, (off_t)off);
    return r == (ssize_t)n ? 0 : -1;
}

/* Looks for the GNU build-id note in notes[0..n); 1 found. */
static int find_note(const elf_in_t *f, const uint8_t *notes, size_t n, char out[81])
{
    size_t at = 0;
    while (at + 12 <= n) {
        uint32_t namesz = rd32(f, notes + at), descsz = rd32(f, notes + at + 4),
                 type = rd32(f, notes + at + 8);
        size_t name_at = at + 12;
        size_t desc_at = name_at + ((namesz + 3u) & ~3u);
        if (namesz > n || descsz > n || desc_at > n || descsz > n - desc_at)
            return 0;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(notes + name_at, "GNU", 4) == 0 &&
            descsz > 0 && descsz <= 40) {
            for (uint32_t i = 0; i < descsz; i++)
                snprintf(out + 2 * i, 3, "%02x", notes[desc_at + i]);
            return 1;
        }
        at = desc_at + ((descsz + 3u) & ~3u);
    }
    return 0;
}

/* Reads program header i: type, file offset and size. */
static int phdr(const elf_in_t *f, uint64_t phoff, unsigned entsz, unsigned i, uint32_t *type,
                uint64_t *off, uint64_t *size)
{
    uint8_t ph[64];
    if (entsz > sizeof ph || read_at(f->fd, ph, entsz, phoff + (uint64_t)i * entsz) != 0)
        return -1;
    *type = rd32(f, ph);
    if (f->is64) {
        *off = rd64(f, ph + 8);
        *size = rd64(f, ph + 32);
    } else {
        *off = rd32(f, ph + 4);
        *size = rd32(f, ph + 16);
    }
    return 0;
}

static int scan(elf_in_t *f, char out[81])
{
    uint8_t eh[64];
    if (read_at(f->fd, eh, sizeof eh, 0) != 0 || memcmp(eh, ELFMAG, SELFMAG) != 0)
        return 0;
    f->is64 = eh[EI_CLASS] == ELFCLASS64;
    f->swap =
        eh[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB);
    uint64_t phoff = f->is64 ? rd64(f, eh + 32) : rd32(f, eh + 28);
    unsigned entsz, phnum;
    uint16_t v16[2];
    memcpy(v16, eh + (f->is64 ? 54 : 42), 4);
    entsz = f->swap ? __builtin_bswap16(v16[0]) : v16[0];
    phnum = f->swap ? __builtin_bswap16(v16[1]) : v16[1];
    uint8_t *notes = gb_malloc(NOTE_MAX);
    int found = 0;
    for (unsigned i = 0; notes && !found && i < phnum && i < 256; i++) {
        uint32_t type;
        uint64_t off, size;
        if (phdr(f, phoff, entsz, i, &type, &off, &size) != 0)
            break;
        if (type != PT_NOTE || size == 0)
            continue;
        size_t n = size < NOTE_MAX ? (size_t)size : NOTE_MAX;
        found = read_at(f->fd, notes, n, off) == 0 && find_note(f, notes, n, out);
    }
    gb_free(notes);
    return found;
}

int gb_elf_build_id(const char *path, char out[81], gb_err_t *e)
{
    out[0] = '\0';
    elf_in_t f = {0};
    f.fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f.fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    int found = scan(&f, out);
    close(f.fd);
    if (!found)
        out[0] = '\0';
    return found;
}
