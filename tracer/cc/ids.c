/* SPDX-License-Identifier: Apache-2.0 */
/* Deterministic block and site ids: hashes of (module, function, ordinals),
 * so that separately compiled trace and cov builds name the same blocks. */
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "cc_int.h"

static uint64_t hash_ids(const gb_ids_t *ids, const unsigned *ords, int nords)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, ids->module, strlen(ids->module) + 1);
    XXH3_64bits_update(&st, ids->func, strlen(ids->func) + 1);
    for (int i = 0; i < nords; i++) {
        char num[16];
        int n = 0;
        unsigned v = ords[i];
        do
            num[n++] = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        if (i > 0)
            XXH3_64bits_update(&st, "", 1);
        for (int k = n - 1; k >= 0; k--)
            XXH3_64bits_update(&st, &num[k], 1);
    }
    return XXH3_64bits_digest(&st);
}

const char *gb_ids_module_key(const char *path)
{
    const char *p = path + strlen(path), *cut = path;
    int slashes = 0;
    while (p > path)
        if (*--p == '/' && ++slashes == 2) {
            cut = p + 1;
            break;
        }
    return cut;
}

uint32_t gb_ids_block(const gb_ids_t *ids, unsigned block_ordinal)
{
    return (uint32_t)(hash_ids(ids, &block_ordinal, 1) % GB_MAP_SIZE);
}

uint32_t gb_ids_site(const gb_ids_t *ids, unsigned block_ordinal, unsigned inst_ordinal)
{
    unsigned o[2] = {block_ordinal, inst_ordinal};
    return (uint32_t)hash_ids(ids, o, 2);
}

int gb_ids_numbered(LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    return !LLVMIsDeclaration(fn) && strncmp(name, "llvm.", 5) != 0 &&
           strncmp(name, "__gb_", 5) != 0;
}

int gb_ids_number(LLVMModuleRef m, gb_blockids_t *out)
{
    *out = (gb_blockids_t){0};
    size_t nfn = 0, nb = 0, len;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (gb_ids_numbered(fn))
            nfn++, nb += LLVMCountBasicBlocks(fn);
    out->fn = calloc(nfn ? nfn : 1, sizeof *out->fn);
    out->start = calloc(nfn + 1, sizeof *out->start);
    out->id = calloc(nb ? nb : 1, sizeof *out->id);
    uint8_t *used = calloc(GB_MAP_SIZE / 8, 1);
    if (!out->fn || !out->start || !out->id || !used) {
        free(used);
        gb_ids_free(out);
        return -1;
    }
    gb_ids_t ids = {gb_ids_module_key(LLVMGetSourceFileName(m, &len)), NULL};
    size_t k = 0, b = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (!gb_ids_numbered(fn))
            continue;
        ids.func = LLVMGetValueName2(fn, &len);
        out->fn[k] = fn;
        out->start[k++] = b;
        unsigned n = LLVMCountBasicBlocks(fn);
        for (unsigned o = 0; o < n; o++) {
            uint32_t id = gb_ids_block(&ids, o);
            /* A module with GB_MAP_SIZE blocks or more keeps the clash. */
            if (used[id >> 3] & (1u << (id & 7))) {
                out->moved++;
                for (uint32_t step = 1; step < GB_MAP_SIZE; step++) {
                    uint32_t c = (id + step) % GB_MAP_SIZE;
                    if (!(used[c >> 3] & (1u << (c & 7)))) {
                        id = c;
                        break;
                    }
                }
            }
            used[id >> 3] |= (uint8_t)(1u << (id & 7));
            out->id[b++] = id;
        }
    }
    out->start[k] = b;
    out->nfn = k;
    free(used);
    return 0;
}

const uint32_t *gb_ids_of(const gb_blockids_t *b, LLVMValueRef fn)
{
    for (size_t k = 0; k < b->nfn; k++)
        if (b->fn[k] == fn)
            return b->id + b->start[k];
    return NULL;
}

void gb_ids_free(gb_blockids_t *b)
{
    free(b->fn), free(b->start), free(b->id);
    *b = (gb_blockids_t){0};
}
