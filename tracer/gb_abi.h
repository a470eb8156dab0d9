/* SPDX-License-Identifier: Apache-2.0 */
/* The ABI between glassbox-cc's trace instrumentation and the trace
 * runtime: codes the instrumenter passes to __gb_intrin. Shared by
 * tracer/cc and tracer/rt only (not part of the trace format). */
#ifndef GB_ABI_H
#define GB_ABI_H

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

#endif
