/* SPDX-License-Identifier: Apache-2.0 */
/* ctype models. glibc's isdigit() etc. are loads from the class table
 * (*__ctype_b_loc())[c], tolower/toupper loads from their own tables, at
 * -O2 and (for the is* macros) at -O0. The *_loc models register those
 * tables, indexable from -128 to 255, as tables that are always read
 * symbolically (table.c), so a symbolic index gives a READ node. Calls of
 * the functions themselves (-O0 tolower/toupper, C++) get the same READ. */
#include <ctype.h>

#include "rt_int.h"

#define CTYPE_LO 128  /* the tables start 128 entries before the pointer */
#define CTYPE_LEN 384 /* and cover -128..255 */

RT_EXPORT const unsigned short **__gb_model___ctype_b_loc(void)
{
    const unsigned short **p = __ctype_b_loc();
    rt_table_register_always(*p - CTYPE_LO, CTYPE_LEN * sizeof **p);
    __gb_ret = NULL;
    return p;
}

RT_EXPORT const int32_t **__gb_model___ctype_tolower_loc(void)
{
    const int32_t **p = __ctype_tolower_loc();
    rt_table_register_always(*p - CTYPE_LO, CTYPE_LEN * sizeof **p);
    __gb_ret = NULL;
    return p;
}

RT_EXPORT const int32_t **__gb_model___ctype_toupper_loc(void)
{
    const int32_t **p = __ctype_toupper_loc();
    rt_table_register_always(*p - CTYPE_LO, CTYPE_LEN * sizeof **p);
    __gb_ret = NULL;
    return p;
}

/* table[c] (elements of `size` bytes) as a READ, for a symbolic c whose
 * value on this run is `c`; NULL when c is outside the table. */
static rt_expr_t *table_entry(const void *table, size_t size, rt_expr_t *sc, int c)
{
    if (!sc || c < -CTYPE_LO || c >= CTYPE_LEN - CTYPE_LO)
        return NULL;
    rt_expr_t *idx =
        rt_binop(GBT_OP_MUL, rt_unop(GBT_OP_SEXT, 64, rt_resize(sc, 32), 0), rt_const(64, size));
    rt_expr_t *addr = rt_binop(GBT_OP_ADD, rt_const(64, (uint64_t)(uintptr_t)table), idx);
    uintptr_t concrete = (uintptr_t)table + (uintptr_t)((intptr_t)c * (intptr_t)size);
    return rt_table_load(addr, concrete, size);
}

/* is*(c) = table[c] & mask, 32 bits wide like the real one. */
static int class_model(const void *self, int c, unsigned short mask)
{
    const unsigned short *t = *__gb_model___ctype_b_loc();
    rt_expr_t *e = table_entry(t, sizeof *t, rt_model_param(self, 0), c);
    __gb_ret = e ? rt_binop(GBT_OP_AND, rt_resize(e, 32), rt_const(32, mask)) : NULL;
    return t[c] & mask;
}

#define CLASS_MODEL(name, bit)                                                                     \
    RT_EXPORT int __gb_model_##name(int c)                                                         \
    {                                                                                              \
        return class_model((const void *)__gb_model_##name, c, (unsigned short)(bit));             \
    }

CLASS_MODEL(isdigit, _ISdigit)
CLASS_MODEL(isalpha, _ISalpha)
CLASS_MODEL(isalnum, _ISalnum)
CLASS_MODEL(isspace, _ISspace)
CLASS_MODEL(isxdigit, _ISxdigit)
CLASS_MODEL(isupper, _ISupper)
CLASS_MODEL(islower, _ISlower)

/* tolower/toupper(c) = -128 <= c < 256 ? table[c] : c. */
static int case_model(const void *self, int c, const int32_t *t)
{
    rt_expr_t *sc = rt_model_param(self, 0);
    rt_expr_t *e = table_entry(t, sizeof *t, sc, c);
    __gb_ret = NULL;
    if (e) {
        sc = rt_resize(sc, 32);
        rt_expr_t *in = rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_ADD, sc, rt_const(32, CTYPE_LO)),
                                 rt_const(32, CTYPE_LEN));
        __gb_ret = rt_ite(in, e, sc);
    }
    return c >= -CTYPE_LO && c < CTYPE_LEN - CTYPE_LO ? t[c] : c;
}

RT_EXPORT int __gb_model_tolower(int c)
{
    return case_model((const void *)__gb_model_tolower, c, *__gb_model___ctype_tolower_loc());
}

RT_EXPORT int __gb_model_toupper(int c)
{
    return case_model((const void *)__gb_model_toupper, c, *__gb_model___ctype_toupper_loc());
}
