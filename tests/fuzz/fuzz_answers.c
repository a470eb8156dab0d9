/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.answers: the answer-cache file reader (symbolic/cache.c,
 * docs/clauses.md "Answer cache") on any bytes, as given and with the
 * trailing checksum made right. A file that loads must answer every key it
 * holds, with a model the file holds. */
#include <stdint.h>
#include <string.h>

#include "fz.h"
#include "gbt.h"
#include "symbolic_int.h"

#define FZ_HEADER 16 /* magic, version, entry count */
#define FZ_ENTRY 28  /* key[2], status, optimistic, reserved, timeout, n */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_entries(const gb_cache_t *c, const uint8_t *d, size_t len)
{
    uint32_t n = gbt_get32(d + 12);
    FZ_CHECK(gb_cache_count(c) <= n && !gb_cache_dirty(c));
    size_t off = FZ_HEADER;
    for (uint32_t i = 0; i < n; i++) {
        FZ_CHECK(len - 8 - off >= FZ_ENTRY);
        const uint8_t *p = d + off;
        uint64_t key[2] = {gbt_get64(p), gbt_get64(p + 8)};
        gb_answer_t a;
        FZ_CHECK(gb_cache_get(c, key, &a) == 1);
        FZ_CHECK(a.status <= GB_Q_TIMEOUT && (a.n == 0 || (a.offs && a.vals)));
        off += FZ_ENTRY + 5 * (size_t)gbt_get32(p + 24);
    }
    FZ_CHECK(off == len - 8);
}

static void load(const uint8_t *d, size_t len)
{
    gb_cache_t *c = gb_cache_new();
    if (!c)
        return;
    gb_err_t e;
    if (gb_cache_load_mem(c, d, len, "fuzz", &e) == 0)
        check_entries(c, d, len);
    else
        FZ_CHECK(strlen(e.msg) < sizeof e.msg);
    gb_cache_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load(data, size);
    if (size < 8)
        return 0;
    uint8_t *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    gbt_put64(copy + size - 8, gb_hash64(copy, size - 8, 0));
    load(copy, size);
    free(copy);
    return 0;
}
