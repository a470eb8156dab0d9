/* SPDX-License-Identifier: Apache-2.0 */
/* The `.gb_cfg` section format: constants of the static CFG glassbox-cc
 * writes (tracer/cc/cfg.c) and the search reads (generational/cfg.c); the
 * normative description is docs/cfg-format.md. Header-only, like gbt.h. */
#ifndef GB_GBCFG_H
#define GB_GBCFG_H

#include "gb_abi.h" /* GB_MAP_SIZE: block ids are below it */

#define GBCFG_MAGIC 0x46434247u /* "GBCF" read as a little-endian word */
#define GBCFG_VERSION 3u        /* what glassbox-cc writes: version 2 plus source lines */
#define GBCFG_VERSION_MIN 2u    /* the oldest readers still take (no source lines); they
                                   refuse others and say to rebuild the target */
#define GBCFG_KIND_SHIFT 8      /* a block's second word: flags | terminator kind << 8 */
#define GBCFG_SIG_UNKNOWN 0xffffffffu /* a signature index: nothing is known of the type */

/* Block flags (bits 0-7 of a block's second word). */
enum gbcfg_block_flag {
    GBCFG_B_RET = 1u,      /* ends in ret or resume: control leaves the function */
    GBCFG_B_INDIRECT = 2u, /* calls through a pointer (listed with signatures), or ends in indirectbr */
    GBCFG_B_SETJMP = 4u,   /* calls a returns_twice function: a longjmp may land here */
    GBCFG_B_DEAD = 8u,     /* ends in unreachable and calls nothing: no defined run gets here */
    GBCFG_B_UNREACHED = 16u, /* version 3: only branches on constants lead here (cfg_fold.c) */
    GBCFG_B_TRAP = 32u,    /* version 3: calls llvm.trap (__builtin_trap) or its kin */
    GBCFG_B_KNOWN = 63u,   /* every flag above; readers reject other bits */
    GBCFG_B_KNOWN_V2 = 15u, /* the flags of version 2 records (no UNREACHED) */
    GBCFG_B_NEVER = 24u,   /* DEAD or UNREACHED: not worth reaching, never a target */
};

/* Terminator kinds (the block's second word >> GBCFG_KIND_SHIFT). */
enum gbcfg_term {
    GBCFG_T_OTHER = 0,  /* anything else; its site word is 0 */
    GBCFG_T_BR = 1,     /* conditional br: successor 0 is taken when the condition is true */
    GBCFG_T_SWITCH = 2, /* successor 0 is the default, successor i + 1 is case i's block */
};

/* Symbol and function flags. */
enum gbcfg_sym_flag {
    GBCFG_S_LOCAL = 1u,      /* internal or private linkage: defined in this module */
    GBCFG_S_ADDR_TAKEN = 2u, /* some use is not a call's callee: callable from anywhere */
    GBCFG_S_KNOWN = 3u,      /* every flag above; readers reject other bits */
};

#endif
