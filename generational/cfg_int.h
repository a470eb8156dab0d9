/* SPDX-License-Identifier: Apache-2.0 */
/* The static CFG glassbox-cc writes into a target's `.gb_cfg` section
 * (docs/cfg-format.md), and the question the search asks of it: can
 * flipping this branch still reach a block no run has covered? */
#ifndef GB_CFG_INT_H
#define GB_CFG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gb_base.h"
#include "gbcfg.h" /* the section's constants; GB_MAP_SIZE */
#include "gbt.h"   /* enum gbt_pc_kind */

typedef struct gb_cfg gb_cfg_t;

/* Reads the `.gb_cfg` section of the ELF file at `path`. Returns 0 with
 * *out = NULL when the file has none (not ELF64, an older build, a program
 * not built by glassbox-cc), 0 with a CFG, or -1 with `e` when the file
 * cannot be read or the section is malformed. */
int gb_cfg_load(const char *path, gb_cfg_t **out, gb_err_t *e);

/* Parses the section's bytes (the concatenated module records). */
int gb_cfg_parse(const uint8_t *data, size_t len, gb_cfg_t **out, gb_err_t *e);

void gb_cfg_free(gb_cfg_t *c);

typedef struct gb_cfg_info {
    size_t modules, functions, blocks, sites;
} gb_cfg_info_t;

void gb_cfg_get_info(const gb_cfg_t *c, gb_cfg_info_t *info);

/* 1 if the CFG lists a block with this id; 1 if it knows `site` as a
 * branch (kind BRANCH) or switch case (kind SWITCH), else 0. */
int gb_cfg_has_block(const gb_cfg_t *c, uint32_t id);
int gb_cfg_has_site(const gb_cfg_t *c, unsigned kind, uint32_t site);

/* Whether flipping the path-constraint entry (kind, site, taken) — kind as
 * in enum gbt_pc_kind — may reach a block whose id `virgin` (GB_MAP_SIZE
 * bytes, 0 = never hit) has never seen. Returns 0 only when the CFG proves
 * it cannot: the new direction's successor and everything reachable from
 * it (the function, its callees transitively, and on a return the callers'
 * continuations, address-taken functions after an indirect call or a call
 * outside the CFG) is covered. Returns 1 for anything it cannot decide: a
 * site it does not know, a PIN or CHECK entry, a CFG that missed blocks
 * the runs covered. `covered` is the number
 * of covered blocks (it only grows; a change triggers the check for blocks
 * the CFG does not list). Answers are cached: coverage only grows, so
 * "cannot reach" stays true. */
int gb_cfg_flip_may_reach(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                          const uint8_t *virgin, uint32_t covered);

/* 1 once a run covered a block the CFG does not list (code built without
 * it, a shared library): from then on every flip may reach. */
int gb_cfg_incomplete(const gb_cfg_t *c);

#endif
