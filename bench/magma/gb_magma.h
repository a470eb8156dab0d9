/* SPDX-License-Identifier: Apache-2.0 */
/* Magma's canary interface (MAGMA_LOG(bug, condition), MAGMA_AND,
 * MAGMA_OR), forced into every file of a Magma library build with
 * -include. The call site stays branch-free: the condition is computed
 * with comparisons and bitwise and/or only, and handed as an int to
 * gb_magma_log, which lives in an uninstrumented unit (gb_magma_rt.c), so
 * no fuzzer's edge map and no trace holds a branch on it. The bug's name
 * comes last: the tracer clears, after an external call, as many bytes of
 * a byte pointer as the integer after it says, and there is none. */
#ifndef GB_MAGMA_H
#define GB_MAGMA_H

#ifdef __cplusplus
extern "C" {
#endif

/* Records that BUG's site ran, and when TRIGGERED is not 0 that it fired,
 * then aborts: every engine saves the input as a crash. */
void gb_magma_log(int triggered, const char *bug);
/* The same as an expression, returning TRIGGERED (never returns when it is
 * not 0). */
int gb_magma_log_v(int triggered, const char *bug);

#ifdef __cplusplus
}
#endif

/* !! turns any scalar (pointers too) into 0 or 1 with a compare, no branch;
 * & and | evaluate both sides, as Magma's asm and/or do. */
#define MAGMA_AND(a, b) (!!(a) & !!(b))
#define MAGMA_OR(a, b) (!!(a) | !!(b))
#define MAGMA_LOG(bug, cond) gb_magma_log(!!(cond), (bug))
#define MAGMA_LOG_V(bug, cond) gb_magma_log_v(!!(cond), (bug))

#endif
