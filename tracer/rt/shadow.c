/* SPDX-License-Identifier: Apache-2.0 */
/* Shadow memory: one expression pointer per byte of the address space, in a
 * lazily allocated three-level table (L1 by bits 47..24, L2 by 23..12, then
 * one 4 KiB page of pointers). Untouched memory costs nothing and reads as
 * concrete. */
#include <string.h>
#include <sys/mman.h>

#include "gb_abi.h"
#include "rt_int.h"

#define L1_BITS 24
#define L2_BITS 12
#define PAGE_BITS 12
_Static_assert(L2_BITS + PAGE_BITS == GB_SHADOW_L1_SHIFT && PAGE_BITS == GB_SHADOW_PAGE_SHIFT &&
                   (1u << L1_BITS) - 1 == GB_SHADOW_L1_MASK &&
                   (1u << L2_BITS) - 1 == GB_SHADOW_L2_MASK,
               "the instrumenter's inline walk (gb_abi.h) must match this layout");
#define L2_SIZE (1u << L2_BITS)
#define PAGE_SIZE_B (1u << PAGE_BITS)

typedef rt_expr_t *page_t[PAGE_SIZE_B];
typedef page_t *l2_t[L2_SIZE];

/* 2^24 entries, reserved on first use. Exported: instrumented code walks
 * the tables inline (gb_abi.h), and calls the runtime only for memory
 * that has a shadow page. */
RT_EXPORT l2_t **__gb_shadow_l1;

static void *zalloc(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* The page for `addr`, or NULL; allocates it when `create`. */
static page_t *page_walk(uintptr_t addr, int create)
{
    if (RT_UNLIKELY(addr >> (L1_BITS + L2_BITS + PAGE_BITS)))
        return NULL; /* beyond 48 bits: never symbolic */
    if (RT_UNLIKELY(!__gb_shadow_l1)) {
        if (!create)
            return NULL;
        __gb_shadow_l1 = zalloc(sizeof(l2_t *) << L1_BITS);
        if (!__gb_shadow_l1)
            return NULL;
    }
    l2_t *l2 = __gb_shadow_l1[addr >> (L2_BITS + PAGE_BITS)];
    if (!l2) {
        if (!create || !(l2 = zalloc(sizeof(l2_t))))
            return NULL;
        __gb_shadow_l1[addr >> (L2_BITS + PAGE_BITS)] = l2;
    }
    page_t **slot = &(*l2)[(addr >> PAGE_BITS) & (L2_SIZE - 1)];
    if (!*slot && create)
        *slot = zalloc(sizeof(page_t));
    return *slot;
}

/* A direct-mapped cache of page_walk's answers, absent pages included:
 * nearly every load and store of a trace build asks for its page, mostly
 * the same few (stack, a buffer or two). Pages are never freed and only
 * page_walk(create) adds them, so an entry goes stale only when its page
 * is created, and page_of refreshes it then. */
#define CACHE_BITS 8
static RT_TLS uintptr_t cache_tag[1u << CACHE_BITS]; /* page number + 1; 0 = empty */
static RT_TLS page_t *cache_page[1u << CACHE_BITS];

/* A cache miss: walks the table and fills the entry. */
__attribute__((noinline)) static page_t *page_miss(uintptr_t addr, int create)
{
    uintptr_t pn = addr >> PAGE_BITS;
    unsigned i = (unsigned)pn & ((1u << CACHE_BITS) - 1);
    page_t *p = page_walk(addr, create);
    cache_tag[i] = pn + 1;
    cache_page[i] = p;
    return p;
}

static inline page_t *page_of(uintptr_t addr, int create)
{
    uintptr_t pn = addr >> PAGE_BITS;
    unsigned i = (unsigned)pn & ((1u << CACHE_BITS) - 1);
    if (RT_LIKELY(cache_tag[i] == pn + 1) && (cache_page[i] || !create))
        return cache_page[i];
    return page_miss(addr, create);
}

RT_HIDDEN rt_expr_t *rt_shadow_get(uintptr_t addr)
{
    if (RT_UNLIKELY(!rt_active))
        return NULL; /* another thread: concrete */
    page_t *p = page_of(addr, 0);
    return p ? (*p)[addr & (PAGE_SIZE_B - 1)] : NULL;
}

RT_HIDDEN void rt_shadow_set(uintptr_t addr, rt_expr_t *e)
{
    if (RT_UNLIKELY(!rt_active))
        e = NULL; /* another thread only clears */
    page_t *p = page_of(addr, e != NULL);
    if (p)
        (*p)[addr & (PAGE_SIZE_B - 1)] = e;
}

/* Whether any of the n shadows at q is set; no early exit, since n is
 * usually a load's 1 to 8 bytes. */
static int any_set(rt_expr_t *const *q, size_t n)
{
    uintptr_t acc = 0;
    for (size_t j = 0; j < n; j++)
        acc |= (uintptr_t)q[j];
    return acc != 0;
}

/* How many of the `left` bytes from a lie in a's page. */
static inline size_t span_in_page(uintptr_t a, size_t left)
{
    size_t in_page = PAGE_SIZE_B - (a & (PAGE_SIZE_B - 1));
    return in_page < left ? in_page : left;
}

/* rt_shadow_any over several pages. The hot paths of this file keep
 * their loops over pages out of line, so that a scalar load or store
 * costs a few instructions and no register saves. */
__attribute__((noinline)) static int any_pages(uintptr_t addr, size_t n)
{
    for (size_t i = 0; i < n;) {
        uintptr_t a = addr + i;
        size_t k = span_in_page(a, n - i);
        page_t *p = page_of(a, 0);
        if (p && any_set(&(*p)[a & (PAGE_SIZE_B - 1)], k))
            return 1;
        i += k;
    }
    return 0;
}

RT_HIDDEN int rt_shadow_any(uintptr_t addr, size_t n)
{
    if (!__gb_shadow_l1 || RT_UNLIKELY(!rt_active))
        return 0;
    size_t off = addr & (PAGE_SIZE_B - 1);
    if (RT_UNLIKELY(n > PAGE_SIZE_B - off))
        return any_pages(addr, n);
    page_t *p = page_of(addr, 0);
    return p && any_set(&(*p)[off], n);
}

/* Clears n shadows at q, writing only those set: most stores of concrete
 * values find their bytes concrete already, and need not dirty the line. */
static void clear_set(rt_expr_t **q, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (q[j])
            q[j] = NULL;
}

__attribute__((noinline)) static void clear_pages(uintptr_t addr, size_t n)
{
    for (size_t i = 0; i < n;) {
        uintptr_t a = addr + i;
        size_t k = span_in_page(a, n - i);
        page_t *p = page_of(a, 0);
        if (p)
            memset(&(*p)[a & (PAGE_SIZE_B - 1)], 0, k * sizeof(rt_expr_t *));
        i += k;
    }
}

RT_HIDDEN void rt_shadow_clear(uintptr_t addr, size_t n)
{
    if (!__gb_shadow_l1)
        return;
    size_t off = addr & (PAGE_SIZE_B - 1);
    if (RT_UNLIKELY(n > 8 || n > PAGE_SIZE_B - off)) {
        clear_pages(addr, n);
        return;
    }
    page_t *p = page_of(addr, 0); /* a scalar store */
    if (p)
        clear_set(&(*p)[off], n);
}

RT_HIDDEN void rt_shadow_copy(uintptr_t dst, uintptr_t src, size_t n)
{
    if (!__gb_shadow_l1 || n == 0 || dst == src)
        return;
    if (RT_UNLIKELY(!rt_active)) {
        rt_shadow_clear(dst, n);
        return;
    }
    if (!rt_shadow_any(src, n)) {
        rt_shadow_clear(dst, n);
        return;
    }
    if (dst < src || dst >= src + n) {
        for (size_t i = 0; i < n; i++)
            rt_shadow_set(dst + i, rt_shadow_get(src + i));
    } else {
        for (size_t i = n; i-- > 0;)
            rt_shadow_set(dst + i, rt_shadow_get(src + i));
    }
}

/* Little-endian: the byte at the highest address is the most significant. */
RT_HIDDEN rt_expr_t *rt_shadow_load(uintptr_t addr, size_t n)
{
    if (!rt_shadow_any(addr, n))
        return NULL;
    rt_expr_t *acc = NULL;
    for (size_t i = n; i-- > 0;) {
        rt_expr_t *b = rt_shadow_get(addr + i);
        if (!b)
            b = rt_const(8, *(const uint8_t *)(addr + i));
        acc = acc ? rt_concat(acc, b) : b;
        if (!acc)
            return NULL;
    }
    return acc;
}

RT_HIDDEN void rt_shadow_store(uintptr_t addr, size_t n, rt_expr_t *e)
{
    if (!e || RT_UNLIKELY(!rt_active)) {
        rt_shadow_clear(addr, n);
        return;
    }
    e = rt_resize(e, (unsigned)(8 * n));
    for (size_t i = 0; i < n; i++)
        rt_shadow_set(addr + i, n == 1 ? e : rt_extract(e, (unsigned)(8 * i), 8));
}
