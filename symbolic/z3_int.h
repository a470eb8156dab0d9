/* SPDX-License-Identifier: Apache-2.0 */
/* Private to the Z3 bridge, z3_bridge.c and z3_fp.c: the only files that
 * include z3.h. */
#ifndef GB_Z3_INT_H
#define GB_Z3_INT_H

#include <z3.h>

#include "symbolic_int.h"

/* Accessors z3_bridge.c gives z3_fp.c. */
Z3_context gb_z3_ctx(gb_z3_t *z);
/* A reference on a fresh term, or NULL when it or an earlier step failed. */
Z3_ast gb_z3_keep(gb_z3_t *z, Z3_ast a);
Z3_sort gb_z3_bv_sort(gb_z3_t *z, unsigned w); /* cached, referenced by the bridge */
Z3_ast gb_z3_bit(gb_z3_t *z, int one);          /* #b1 or #b0 */

/* The term of floating-point node x (arguments' terms a0, a1; a1 NULL for
 * one argument), unreferenced, or NULL on failure (z3_fp.c). */
Z3_ast gb_z3_translate_fp(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, Z3_ast a0,
                          Z3_ast a1);

#endif
