/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.trace: the .gbt reader (symbolic/trace.c, docs/trace-format.md) on
 * any bytes, as given and with its header and block checksums made right
 * (else nearly every mutation stops at a checksum). A trace that loads is
 * used as the search and `glassbox show` use one. */
#include <stdint.h>
#include <string.h>

#include "fz.h"
#include "gbt.h"
#include "symbolic.h"

/* Entries looked at in detail: each walks its sub-DAG, and a big trace
 * would spend the run's time there instead of in the reader. */
#define FZ_PCS 64

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    return sink ? 0 : -1;
}

static void use(const gb_trace_t *t, const uint8_t *in, size_t len)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    FZ_CHECK(info.complete || info.end_kind == -1);
    for (size_t j = 0; j < info.pcs && j < FZ_PCS; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        FZ_CHECK(pc.taken <= 1 && pc.kind <= GBT_PC_CHECK);
        int held = gb_trace_eval_pc(t, j, in, len);
        FZ_CHECK(held >= -1 && held <= 1); /* -1: out of memory */
        uint64_t *offs;
        size_t n;
        if (gb_trace_pc_inputs(t, j, &offs, &n) == 0) {
            for (size_t k = 1; k < n; k++)
                FZ_CHECK(offs[k - 1] < offs[k]);
            gb_free(offs);
        }
        FZ_CHECK(gb_trace_pc_read_end(t, j) <= info.read_end);
    }
    size_t nb;
    const uint32_t *b = gb_trace_blocks(t, &nb);
    FZ_CHECK(nb == info.blocks && (nb == 0 || b != NULL));
    gb_err_t e;
    FZ_CHECK(gb_trace_print_smt2(t, sink, &e) == 0);
}

static void load(const uint8_t *data, size_t size, unsigned flags)
{
    gb_trace_t *t;
    gb_err_t e;
    if (gb_trace_load_mem(data, size, flags, &t, &e) != 0) {
        FZ_CHECK(t == NULL && e.msg[0] != '\0' && strlen(e.msg) < sizeof e.msg);
        return;
    }
    use(t, data, size);
    gb_trace_free(t);
}

/* The header's and each whole block's checksum, recomputed in place. */
static void fix_checksums(uint8_t *p, size_t len)
{
    if (len < GBT_HEADER_SIZE)
        return;
    gbt_put64(p + 32, gb_hash64(p, 32, 0));
    uint64_t index = 0;
    for (size_t off = GBT_HEADER_SIZE; len - off >= GBT_BLOCK_HEADER_SIZE; index++) {
        uint32_t plen = gbt_get32(p + off + 4);
        if (plen > len - off - GBT_BLOCK_HEADER_SIZE)
            break;
        gbt_put64(p + off + 8, gb_hash64(p + off + GBT_BLOCK_HEADER_SIZE, plen, index));
        off += GBT_BLOCK_HEADER_SIZE + plen;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load(data, size, 0);
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    fix_checksums(copy, size);
    load(copy, size, 0);
    load(copy, size, GB_TRACE_PREFIX_OK);
    free(copy);
    return 0;
}
