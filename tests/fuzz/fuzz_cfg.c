/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.cfg: the `.gb_cfg` section reader (generational/cfg_read.c,
 * docs/cfg-format.md) on any bytes; an input that starts as an ELF file
 * does is read as a binary instead (gb_cfg_load: the section headers, then
 * the section), through a memfd since that reader takes a path. Then the
 * search (cfg.c) on every CFG read: each branch and switch site the input's words name is asked
 * whether a flip may reach an uncovered block, with part of the CFG's
 * blocks covered and then all of them. The contract checked: an answer is
 * 0 or 1, and a site the CFG does not know, a PIN and a CHECK always get 1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cfg_int.h"
#include "fz.h"
#include "gbt.h"

#define FZ_SITES 64 /* words of the input tried as sites */

static uint8_t virgin[GB_MAP_SIZE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Covers the CFG's blocks whose id's hash has bit `bit` set (all of them
 * when bit < 0); returns how many are covered. */
static uint32_t cover(const gb_cfg_t *c, int bit)
{
    uint32_t covered = 0;
    for (uint32_t id = 0; id < GB_MAP_SIZE; id++) {
        int hit = gb_cfg_has_block(c, id) && (bit < 0 || ((id * 2654435761u) >> bit & 1));
        virgin[id] = (uint8_t)hit;
        covered += (uint32_t)hit;
    }
    return covered;
}

static void ask(gb_cfg_t *c, const uint8_t *data, size_t size, uint32_t covered)
{
    for (size_t i = 0; i + 4 <= size && i / 4 < FZ_SITES; i += 4) {
        uint32_t site = gbt_get32(data + i);
        for (unsigned kind = GBT_PC_BRANCH; kind <= GBT_PC_CHECK; kind++)
            for (unsigned taken = 0; taken < 2; taken++) {
                int r = gb_cfg_flip_may_reach(c, kind, site, taken, virgin, covered);
                FZ_CHECK(r == 0 || r == 1);
                if (kind == GBT_PC_PIN || kind == GBT_PC_CHECK || !gb_cfg_has_site(c, kind, site))
                    FZ_CHECK(r == 1);
            }
    }
}

/* The input as a file: 0 and the CFG of its .gb_cfg section (NULL when it
 * has none), or -1. */
static int load_elf(const uint8_t *data, size_t size, gb_cfg_t **c, gb_err_t *e)
{
    int fd = memfd_create("fuzz_cfg", MFD_CLOEXEC);
    FZ_CHECK(fd >= 0 && write(fd, data, size) == (ssize_t)size);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int rc = gb_cfg_load(path, c, e);
    close(fd);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_cfg_t *c;
    gb_err_t e;
    int elf = size >= 4 && memcmp(data, "\177ELF", 4) == 0;
    if ((elf ? load_elf(data, size, &c, &e) : gb_cfg_parse(data, size, &c, &e)) != 0) {
        FZ_CHECK(strlen(e.msg) < sizeof e.msg && e.msg[0]);
        return 0;
    }
    if (!c)
        return 0; /* an ELF file without the section */
    gb_cfg_info_t info;
    gb_cfg_get_info(c, &info);
    FZ_CHECK(info.blocks <= size / 4 && info.functions <= info.blocks);
    ask(c, data, size, cover(c, size ? data[0] % 29 : 0));
    ask(c, data, size, cover(c, -1));
    FZ_CHECK(!gb_cfg_incomplete(c));
    gb_cfg_free(c);
    return 0;
}
