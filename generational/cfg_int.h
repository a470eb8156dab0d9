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

/* Directed mode (`glassbox reach`): gb_cfg_flip_may_reach with a goal
 * set instead of the uncovered blocks: whether the new direction may reach
 * a block whose id `goal` (GB_MAP_SIZE bytes) marks non-zero. Same walk,
 * same soundness (0 only when no CFG path leads there); virgin and covered
 * serve the check for blocks the CFG does not list. The goal set may only
 * shrink between calls (answers are cached). */
int gb_cfg_flip_may_reach_goal(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                               const uint8_t *goal, const uint8_t *virgin, uint32_t covered);

/* 0 when no goal block is reachable from the entry points (main,
 * LLVMFuzzerTestOneInput, LLVMFuzzerInitialize) or from any function code
 * outside the CFG may call; 1 otherwise. */
int gb_cfg_goal_from_entry(gb_cfg_t *c, const uint8_t *goal);

/* Source lines (version 3 sections, built with -g): the blocks whose
 * instructions come from `line` of a file whose recorded path ends with
 * `file` at a '/' (a base name is enough). *blocks (gb_free it) gets their
 * indices, *n their count. `where` tells what was found when none came. */
typedef struct gb_cfg_where {
    size_t line_modules;  /* modules whose record has source lines */
    size_t files;         /* recorded files that match `file` */
    uint32_t before, after; /* the nearest lines of those files that have blocks (0: none) */
} gb_cfg_where_t;

int gb_cfg_line_blocks(const gb_cfg_t *c, const char *file, uint32_t line, uint32_t **blocks,
                       size_t *n, gb_cfg_where_t *where);

/* Block b's id, its function's name (not NUL-terminated, *len bytes). */
uint32_t gb_cfg_block_id(const gb_cfg_t *c, uint32_t b);
uint32_t gb_cfg_block_flags(const gb_cfg_t *c, uint32_t b); /* GBCFG_B_* */
/* 1 when block b calls a function of that name outside the CFG. */
int gb_cfg_block_calls(const gb_cfg_t *c, uint32_t b, const char *name);
/* Block b's first source line (0 and file NULL when it has none). */
uint32_t gb_cfg_block_line(const gb_cfg_t *c, uint32_t b, const char **file, uint32_t *flen);
const char *gb_cfg_block_func(const gb_cfg_t *c, uint32_t b, uint32_t *len);

/* Static distances to the goal set (a breadth-first search backwards over
 * successors and calls into callees): dist_by_id[id] gets the fewest such
 * steps from any block with that id to a goal block (0 for a goal block,
 * UINT32_MAX when none leads there). A block from which a goal is reached
 * only by returning from its function gets GB_CFG_RET_PENALTY plus the
 * steps that also follow returns into every caller's successors: those
 * steps assume any caller, so a small helper called near a target (say a
 * byte-order read) would look near it from everywhere it is called.
 * A heuristic for ordering only, never a proof. 0, or -1 out of memory. */
#define GB_CFG_RET_PENALTY (1u << 20)
int gb_cfg_goal_distances(gb_cfg_t *c, const uint8_t *goal, uint32_t *dist_by_id);

/* After gb_cfg_goal_distances: the distance of the blocks flipping the
 * entry (kind, site, taken) starts at; UINT32_MAX when unknown. */
uint32_t gb_cfg_flip_distance(const gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken);

/* 1 when the new direction of the entry (kind, site, taken as traced)
 * starts at a block no run has hit (`virgin`, GB_MAP_SIZE bytes, 0 =
 * never): the flip is at the frontier of the coverage, and a child that
 * takes the direction covers a new block. 0 otherwise, and when unknown
 * (not a branch or switch arm the CFG knows, a CFG that misses covered
 * blocks). For ordering only. */
int gb_cfg_flip_opens(const gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                      const uint8_t *virgin);

/* 1 when some call may run code outside the CFG: a direct call of a
 * function no module defines other than those `allowed` names, or an
 * indirect call that may reach one; `name` gets the first such callee (or
 * "an indirect call"). 0 when every call stays inside. */
int gb_cfg_leaves(const gb_cfg_t *c, const char *const *allowed, size_t nallowed, char *name,
                  size_t cap);

/* 1 once a run covered a block the CFG does not list (code built without
 * it, a shared library): from then on every flip may reach. */
int gb_cfg_incomplete(const gb_cfg_t *c);

#endif
