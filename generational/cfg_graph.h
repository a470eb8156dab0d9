/* SPDX-License-Identifier: Apache-2.0 */
/* The static CFG as cfg_read.c builds it from `.gb_cfg` sections
 * (docs/cfg-format.md), with the indexes cfg.c's reachability search
 * needs: callers, signatures, call-outs. Read-only once built. */
#ifndef GB_CFG_GRAPH_H
#define GB_CFG_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "gb_base.h"
#include "gb_hmap.h"
#include "gbcfg.h"

#define GB_CFG_NONE UINT32_MAX /* no index: an unknown signature, no block, no arm */

typedef struct gb_cfg_u32v {
    uint32_t *v;
    size_t n, cap;
} gb_cfg_u32v_t;

typedef struct gb_cfg_block {
    uint32_t id, flags, kind, site, func;
    uint32_t succ, nsucc;   /* into g->succ: block indices */
    uint32_t calls, ncalls; /* into g->calls: symbol indices */
    uint32_t isig, nisig;   /* into g->isigs: the indirect calls' signatures (or NONE) */
    uint32_t lines, nlines; /* into g->lines: nlines pairs (file index into g->files, line) */
} gb_cfg_block_t;

/* A source file a block's lines name (version 3 sections). */
typedef struct gb_cfg_file {
    const char *text; /* into g->data, not NUL-terminated */
    uint32_t len;
} gb_cfg_file_t;

/* What code outside the CFG does with a function (cfg_read.c decides). */
enum gb_cfg_role {
    GB_CFG_ENTRY = 1, /* main, LLVMFuzzer*: the driver calls it; its return ends the run */
    GB_CFG_EXIT = 2,  /* address-taken with an exit handler's signature */
};

typedef struct gb_cfg_func {
    const char *name;
    uint32_t len, module, flags, sig, role;
    uint32_t first, nblocks;
    uint32_t callers, ncallers; /* into g->callers: blocks that call it directly */
} gb_cfg_func_t;

typedef struct gb_cfg_sym {
    const char *name;
    uint32_t len, module, flags, sig;
    uint32_t defs, ndefs; /* into g->defs: functions it may name (0: outside the CFG) */
    int leaf;             /* outside the CFG and calls nothing back (memcpy, strlen, ...) */
} gb_cfg_sym_t;

/* A signature, interned over all modules. */
typedef struct gb_cfg_sig {
    const char *text;
    uint32_t len;
    uint32_t funcs, nfuncs; /* into g->sig_funcs: address-taken functions of the CFG */
    uint32_t sites, nsites; /* into g->sig_sites: blocks that call through it */
    int out;                /* some address-taken function outside the CFG has it */
} gb_cfg_sig_t;

typedef struct gb_cfg_site {
    uint64_t key;   /* site id + 1; 0 = empty */
    uint32_t block; /* NONE: two sites share this id, so it is never decided */
    uint32_t arm;   /* switch case index; NONE for a conditional branch */
} gb_cfg_site_t;

static inline uint64_t gb_cfg_site_hash(uint64_t key)
{
    return (key - 1) * 0x9e3779b97f4a7c15ull;
}

GB_HMAP_DEFINE_KEYED(gb_cfg_sitemap, gb_cfg_site_t, uint64_t, gb_cfg_site_hash, gb_calloc, gb_free)

typedef struct gb_cfg_graph {
    uint8_t *data; /* the section: names point into it */
    size_t len, modules;
    gb_cfg_block_t *blocks;
    size_t nblocks, cap_blocks;
    gb_cfg_func_t *funcs;
    size_t nfuncs, cap_funcs;
    gb_cfg_sym_t *syms;
    size_t nsyms, cap_syms;
    gb_cfg_sig_t *sigs;
    size_t nsigs, cap_sigs;
    gb_cfg_file_t *files;
    size_t nfiles, cap_files;
    size_t line_modules; /* modules whose record names source files (version 3, -g) */
    gb_cfg_u32v_t succ, calls, isigs, defs, callers, lines;
    gb_cfg_u32v_t sig_funcs, sig_sites;
    gb_cfg_u32v_t addr_taken;       /* functions: what code outside the CFG may call */
    gb_cfg_u32v_t any_sig;          /* address-taken functions of unknown signature */
    gb_cfg_u32v_t exits;            /* functions exit-time code may call */
    gb_cfg_u32v_t isites;           /* blocks with an indirect call */
    gb_cfg_u32v_t blind;            /* blocks with an indirect call of unknown signature */
    gb_cfg_u32v_t callouts;         /* blocks that may call code outside the CFG */
    gb_cfg_u32v_t setjmps;          /* blocks a longjmp may land in */
    int out_any;                    /* an address-taken function outside the CFG has no signature */
    gb_cfg_sitemap_t sites;         /* branch and switch sites by id */
    uint8_t known[GB_MAP_SIZE / 8]; /* block ids the CFG lists */
} gb_cfg_graph_t;

/* Builds `g` (zeroed by the caller) from a copy of the section's bytes:
 * 0, or -1 with `e` (malformed, another version, out of memory); on -1
 * `g` still needs gb_cfg_graph_free. */
int gb_cfg_graph_parse(gb_cfg_graph_t *g, const uint8_t *data, size_t len, gb_err_t *e);

void gb_cfg_graph_free(gb_cfg_graph_t *g);

/* The `.gb_cfg` section of the ELF file at `path`, in gb_malloc'd memory:
 * 1 found, 0 none (not ELF64, no section), -1 with `e` (unreadable). */
int gb_cfg_graph_read_elf(const char *path, uint8_t **data, size_t *len, gb_err_t *e);

/* cfg_lines.c: the blocks (indices, appended to `out`) with an
 * instruction from `line` of a recorded file whose path ends with `file`
 * at a '/'; *files counts the matching files, *before and *after get the
 * nearest lines of theirs that have blocks (0: none). 0, or -1 OOM. */
int gb_cfg_graph_line_blocks(const gb_cfg_graph_t *g, const char *file, uint32_t line,
                             gb_cfg_u32v_t *out, uint32_t *files, uint32_t *before,
                             uint32_t *after);

/* cfg_lines.c: dist[b] (nblocks entries) = the fewest steps from block b
 * to a non-dead block whose id `goal` marks, over successors, calls and,
 * when `returns`, returns into the callers' successors; UINT32_MAX when
 * none. 0, or -1. */
int gb_cfg_graph_distances(const gb_cfg_graph_t *g, const uint8_t *goal, int returns,
                           uint32_t *dist);

/* The branch or switch site with this id, or NULL (unknown, or shared). */
const gb_cfg_site_t *gb_cfg_graph_site(const gb_cfg_graph_t *g, uint32_t site);

/* The graph behind a loaded CFG (cfg_int.h's gb_cfg_t), for readers other
 * than the flip check (frontier.c). */
struct gb_cfg;
const gb_cfg_graph_t *gb_cfg_graph_of(const struct gb_cfg *c);

#endif
