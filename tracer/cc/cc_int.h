/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox-cc internals: the driver (main.c) and the in-process
 * instrumenter (ids.c, cfg.c, instrument.c) over the LLVM-C API. */
#ifndef GB_CC_INT_H
#define GB_CC_INT_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "gb_abi.h" /* GB_MAP_SIZE: block ids stay below it */

typedef enum gb_cc_mode { GB_CC_TRACE = 1, GB_CC_COV = 2 } gb_cc_mode_t;

/* Ids of one function's blocks and instructions, computed before any
 * instrumentation so both modes agree (docs/trace-format.md, "Ids"). */
typedef struct gb_ids {
    const char *module; /* gb_ids_module_key of the source file name */
    const char *func;
} gb_ids_t;

/* What of a module's source file name its ids hash: the last two path
 * components ("progs/flood.c"), so ids do not depend on where the tree
 * was cloned or built. */
const char *gb_ids_module_key(const char *path);
uint32_t gb_ids_block(const gb_ids_t *ids, unsigned block_ordinal);
uint32_t gb_ids_site(const gb_ids_t *ids, unsigned block_ordinal, unsigned inst_ordinal);

/* The block ids of a whole module, fixed before any instrumentation: each
 * block takes gb_ids_block's hash, or when an earlier block of the module
 * (functions in module order, blocks by ordinal) already holds it, the
 * next free id upward. So no two blocks of one module share a coverage
 * slot; blocks of different modules still may. */
typedef struct gb_blockids {
    LLVMValueRef *fn; /* the numbered functions: defined, not llvm.* or __gb_* */
    size_t *start;    /* fn[k]'s first block in id[] (nfn + 1 entries) */
    uint32_t *id;
    size_t nfn;
    unsigned moved; /* blocks whose hash an earlier block held */
} gb_blockids_t;

int gb_ids_number(LLVMModuleRef m, gb_blockids_t *out); /* 0, or -1 out of memory */
/* 1 for a function the ids number and the CFG lists: defined, not llvm.*
 * or __gb_* (the runtime's). */
int gb_ids_numbered(LLVMValueRef fn);
/* fn's block ids by ordinal, or NULL for a function made after numbering. */
const uint32_t *gb_ids_of(const gb_blockids_t *b, LLVMValueRef fn);
void gb_ids_free(gb_blockids_t *b);

/* Writes the module's static CFG into a `.gb_cfg` section (module inline
 * asm; docs/cfg-format.md). Run before instrumenting, in both modes, so
 * its ids are those both builds use. Returns 0, or -1 when out of memory. */
int gb_cc_emit_cfg(LLVMModuleRef m, const gb_blockids_t *bids);

/* cfg_fold.c: per function the CFG lists (module order), a byte per
 * block: 1 when the entry cannot reach it once non-escaping locals are
 * registers and branches on constants keep only the successor they take.
 * dead[i] is NULL for a function left unmarked. */
typedef struct gb_fold {
    uint8_t **dead;
    size_t n;
} gb_fold_t;

int gb_cc_fold_dead(LLVMModuleRef m, gb_fold_t *out); /* 0, or -1 out of memory */
void gb_cc_fold_free(gb_fold_t *f);

/* Instruments every defined function of `m` for `mode`. Returns 0, or -1
 * with a message in `err` (size `errlen`). `collisions` receives the
 * number of blocks whose hashed id an earlier block of this module had
 * (gb_blockids_t: they moved to a free id). */
int gb_cc_instrument(LLVMModuleRef m, gb_cc_mode_t mode, unsigned *collisions, char *err,
                     size_t errlen);

#endif
