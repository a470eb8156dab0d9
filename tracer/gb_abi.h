/* SPDX-License-Identifier: Apache-2.0 */
/* The ABI of the trace runtime: codes glassbox-cc's instrumentation
 * passes to __gb_intrin and the shadow layout it reads inline (shared by
 * tracer/cc and tracer/rt), the size of the block id space, and the
 * environment a host sets to ask a trace build for a trace (shared with
 * fuzz-bridge/, which runs trace builds).
 * Not part of the trace format. */
#ifndef GB_ABI_H
#define GB_ABI_H

/* Block ids (docs/trace-format.md, "Ids") are an index into a coverage
 * map of this many bytes: the cov build's AFL++ map, the trace runtime's
 * seen-bitmap, the host's coverage and the CFG section all use them. It is
 * AFL++'s default MAP_SIZE, the map the cov build's afl-compiler-rt.o and
 * a forkserver client assume when a target announces no size, and small
 * enough that clearing and scanning it each run costs little; ids then
 * collide at about 8 per 1,000 blocks. A power of two (the runtime masks
 * ids with GB_MAP_SIZE - 1). Changing it means rebuilding every target. */
#define GB_MAP_SIZE 65536u

/* Where a trace build writes its trace; without it the build runs plainly. */
#define GB_ENV_TRACE_OUT "GLASSBOX_TRACE_OUT"
/* The input file of a whole program (its reads of that file are symbolic);
 * docs/tracer.md, "Input sources". */
#define GB_ENV_INPUT "GLASSBOX_INPUT"

/* __gb_intrin(code, width, sa, va, sb, vb, sc, vc): the shadow of an
 * LLVM intrinsic's result (or of one field of a *.with.overflow result),
 * built from existing expression operators so the trace format does not
 * change. */
enum gb_intrin {
    GB_IN_BSWAP = 1,
    GB_IN_CTPOP,
    GB_IN_CTLZ,
    GB_IN_CTTZ,
    GB_IN_FSHL, /* (a, b, shift) */
    GB_IN_FSHR,
    GB_IN_ABS,
    GB_IN_SMIN,
    GB_IN_SMAX,
    GB_IN_UMIN,
    GB_IN_UMAX,
    GB_IN_UADD_SAT,
    GB_IN_USUB_SAT,
    GB_IN_SADD_SAT,
    GB_IN_SSUB_SAT,
    /* *.with.overflow: field 0 (the wrapped result) ... */
    GB_IN_ADD,
    GB_IN_SUB,
    GB_IN_MUL,
    /* ... and field 1 (the overflow bit, width 1) */
    GB_IN_UADD_OV,
    GB_IN_SADD_OV,
    GB_IN_USUB_OV,
    GB_IN_SSUB_OV,
    GB_IN_UMUL_OV,
    GB_IN_SMUL_OV,
    GB_IN_LAST = GB_IN_SMUL_OV
};

/* Shadow memory layout, read inline by instrumented code so that loads
 * and stores of concrete memory skip the runtime (tracer/rt/shadow.c):
 * __gb_shadow_l1 (NULL until something is symbolic) holds 2^24 pointers
 * to second-level tables, indexed by address bits 47..24; each of those
 * holds 2^12 pointers to pages of 4096 shadows, indexed by bits 23..12.
 * A null entry at any level means every byte it covers is concrete.
 * On an existing page, accesses of up to GB_SHADOW_INLINE_MAX bytes test
 * their shadows inline too: state next to symbolic data stays off the
 * runtime while its own bytes are concrete. */
#define GB_SHADOW_L1_SHIFT 24
#define GB_SHADOW_L1_MASK 0xffffffu
#define GB_SHADOW_PAGE_SHIFT 12
#define GB_SHADOW_L2_MASK 0xfffu
#define GB_SHADOW_INLINE_MAX 8

/* The call-context hash (__gb_ctx, thread-local, 32 bits): a call from
 * site s in a function entered with context c runs with c * K ^ s, and
 * the caller's c is restored after the call. Back-off is keyed by it. */
#define GB_CTX_MUL 0x9e3779b1u

/* Argument shadows a call passes (__gb_params, thread-local): the first
 * GB_MAX_PARAMS arguments; later ones are concrete in the callee. */
#define GB_MAX_PARAMS 16

/* Variadic arguments (docs/tracer.md, "Variadic arguments"). A call to a
 * variadic function stores in __gb_vadesc (thread-local) a descriptor of
 * its variadic arguments: byte 0 the count n, then one byte per argument,
 * its size in bytes (1, 2, 4 or 8) ORed with GB_VA_FP for a floating-point
 * value (passed in a vector register). The list stops before the first
 * argument of another kind (a struct by value, long double, __int128, a
 * vector). Their shadows are in __gb_params after the fixed arguments.
 * A variadic function that calls va_start keeps both in GB_VA_SAVE
 * pointer-sized slots of its frame (__gb_va_enter in its prologue) and
 * puts the shadows where va_arg reads the values after each va_start
 * (__gb_va_start). */
#define GB_VA_FP 0x10u
#define GB_VA_SIZE_MASK 0x0fu
#define GB_VA_SAVE (1 + GB_MAX_PARAMS) /* the descriptor, then the shadows */

#endif
