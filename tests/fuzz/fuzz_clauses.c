/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.clauses: the learned-clause file reader (symbolic/clauses.c,
 * docs/clauses.md "Files") on any bytes, as given and with the trailing
 * checksum made right. A file that loads must teach exactly the clauses it
 * holds: each of them, asked as a query, is refuted by the index. */
#include <stdint.h>
#include <string.h>

#include "fz.h"
#include "gbt.h"
#include "symbolic_int.h"

#define FZ_HEADER 24 /* magic, version, clause count, literal count */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every clause of a file that loaded matches itself. */
static void check_index(const gb_clauses_t *c, const uint8_t *d, size_t len)
{
    uint32_t ncl = gbt_get32(d + 12);
    uint64_t lits[GB_CLAUSE_MAX];
    size_t off = FZ_HEADER;
    for (uint32_t i = 0; i < ncl; i++) {
        uint32_t n = gbt_get32(d + off);
        FZ_CHECK(n >= 1 && n <= GB_CLAUSE_MAX && off + 4 + 8 * (size_t)n <= len - 8);
        for (uint32_t k = 0; k < n; k++)
            lits[k] = gbt_get64(d + off + 4 + 8 * k);
        FZ_CHECK(gb_clauses_match(c, lits, n) != 0);
        off += 4 + 8 * (size_t)n;
    }
    FZ_CHECK(off == len - 8);
}

static void load(const uint8_t *d, size_t len)
{
    gb_clauses_t *c = gb_clauses_new();
    if (!c)
        return;
    size_t added, local;
    gb_err_t e;
    if (gb_clauses_load_mem(c, d, len, "fuzz", 1, &added, &e) == 0) {
        FZ_CHECK(gb_clauses_count(c, &local) == added && local == added);
        check_index(c, d, len);
        FZ_CHECK(gb_clauses_load_mem(c, d, len, "fuzz", 0, &added, &e) == 0 && added == 0);
    } else {
        FZ_CHECK(gb_clauses_count(c, NULL) == 0 && strlen(e.msg) < sizeof e.msg);
    }
    gb_clauses_free(c);
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
