/* SPDX-License-Identifier: Apache-2.0 */
/* A typed open-addressing hash map, generated per slot type by a macro (the
 * idea of khash, written for Glassbox). Header-only and libc-only, so the
 * trace runtime, which links nothing of base/, may include it too. */
#ifndef GB_HMAP_H
#define GB_HMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Layout. A map is an array of the caller's `slot_t`, a power of two of
 * them, probed linearly from HASH & (cap - 1) and never more than half
 * full, so every probe ends at an empty slot. The slot holds the key (or
 * an index from which the key can be found) and the values that belong
 * with it: a hit reads one slot, a miss never leaves the array.
 *
 * Empty slots. The array is allocated zeroed and an all-zero slot is empty;
 * a slot in use must not look empty to IS_EMPTY (store an index as index +
 * 1, a key that may be 0 as key + 1, or test a count that is never 0).
 *
 * No removal: entries stay until clear or free, so no tombstones are needed
 * and a probe stops at the first empty slot.
 *
 * Hooks, functions or function-like macros, given to GB_HMAP_FUNCS:
 *   HASH(ctx, key)         uint64_t hash of a look-up key. Only its low bits
 *                          pick the slot: they must be well mixed.
 *   SLOT_HASH(ctx, slot)   the same hash for the key of a slot in use (used
 *                          when growing).
 *   MATCH(ctx, slot, key)  nonzero if the slot in use holds `key`.
 *   IS_EMPTY(slot)         nonzero if the slot is empty.
 *   CALLOC(n, size)        zeroed memory, or NULL (never abort): gb_calloc
 *                          in the libraries, calloc in the runtime.
 *   FREE(p)                releases what CALLOC returned.
 * `ctx` is the map's `ctx` member, given to init: what the hooks need to
 * reach keys a slot only indexes (the node array, for hash-consing). It
 * must stay valid while the map is used. Keys are passed by value; the key
 * type may differ from what the slot stores.
 *
 * Generated functions (prefix `name_`, all static; none aborts):
 *   int    init(m, ctx, n)   an empty map with room for n entries; 0 or -1
 *                            (out of memory; the map is still valid, empty).
 *                            A zeroed name_t is a valid empty map too.
 *   void   free(m)           releases the slots; the map is empty again.
 *   void   clear(m)          empties the map, keeping its slots.
 *   int    reserve(m, n)     room for n entries in all, so the next puts
 *                            cannot fail; 0, or -1 with the map unchanged.
 *   int    reset(m, n)       empties the map into fresh slots with room for
 *                            n entries; 0, or -1 with the map unchanged. For
 *                            an index map whose caller re-adds its entries
 *                            in array order: faster than reserve's rehash,
 *                            which reads the keys in slot (random) order.
 *   slot*  find(m, key)      the slot holding key, or NULL.
 *   int    full(m)           1 when the next new entry makes the map grow.
 *   slot*  put(m, key, &fresh)  find, or claim an empty slot for key
 *                            (*fresh = 1): the caller must fill it so that
 *                            it holds key before the next call on the map.
 *                            NULL when growing failed: the map is unchanged.
 *   void   unput(m, slot)    gives back a fresh slot the caller could not
 *                            fill (it is still empty): the map is as it was
 *                            before the put, but for growth.
 *   slot*  add(m, key)       always claims a new slot (a multimap: several
 *                            entries may match one key); NULL as put.
 *   slot*  add_reserved(m, key)  add without the growth check, for bulk
 *                            refills after reserve or reset: the caller
 *                            guarantees room; never NULL.
 *   slot*  find_next(m, key, s)  the next slot after s on key's probe path
 *                            that matches (add's entries, in the order they
 *                            were added), or NULL.
 *   slot*  next(m, &pos)     iteration: pos = 0 first; every entry once, in
 *                            slot order, then NULL. No puts while iterating.
 * Slot pointers stay valid until the next put, add, reserve, reset, clear
 * or free.
 */

#define GB_HMAP_MIN_CAP 16u

/* Slots for n entries: the least power of two >= 2n (at least
 * GB_HMAP_MIN_CAP), or 0 when that does not fit in a size_t. */
static inline __attribute__((unused)) size_t gb_hmap_cap_for(size_t n)
{
    size_t cap = GB_HMAP_MIN_CAP;
    while (cap / 2 < n) {
        if (cap > SIZE_MAX / 2)
            return 0;
        cap *= 2;
    }
    return cap;
}

/* The map type `name_t`. Separate from GB_HMAP_FUNCS so a header can name
 * the type while one .c file has the functions. */
#define GB_HMAP_TYPE(name, slot_t, ctx_t)                                                          \
    typedef struct name {                                                                          \
        slot_t *slots; /* cap slots; NULL while cap is 0 */                                        \
        size_t n;      /* entries */                                                               \
        size_t cap;    /* 0 or a power of two, >= 2n */                                            \
        ctx_t ctx;     /* passed to the hooks */                                                   \
    } name##_t;

/* The functions of map `name_t` (see above). */
#define GB_HMAP_FUNCS(name, slot_t, key_t, ctx_t, HASH, SLOT_HASH, MATCH, IS_EMPTY, CALLOC, FREE)  \
    /* The first empty slot on the probe path from hash h. */                                      \
    static inline __attribute__((unused))                                                          \
    slot_t *name##_hole(slot_t *slots, size_t mask, uint64_t h)                                    \
    {                                                                                              \
        size_t i = (size_t)h & mask;                                                               \
        while (!IS_EMPTY(&slots[i]))                                                               \
            i = (i + 1) & mask;                                                                    \
        return &slots[i];                                                                          \
    }                                                                                              \
                                                                                                   \
    /* From slot i on (cap > 0): the first slot matching k, or NULL at the                         \
     * empty slot that ends the probe path. */                                                     \
    static inline __attribute__((unused))                                                          \
    slot_t *name##_from(const name##_t *m, key_t k, size_t i)                                      \
    {                                                                                              \
        size_t mask = m->cap - 1;                                                                  \
        for (i &= mask;; i = (i + 1) & mask) {                                                     \
            slot_t *s = &m->slots[i];                                                              \
            if (IS_EMPTY(s))                                                                       \
                return NULL;                                                                       \
            if (MATCH(m->ctx, s, k))                                                               \
                return s;                                                                          \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    /* `cap` fresh slots, or NULL (also when cap is 0: too many). */                               \
    static inline __attribute__((unused)) slot_t *name##_alloc(size_t cap)                         \
    {                                                                                              \
        return cap ? (slot_t *)CALLOC(cap, sizeof(slot_t)) : NULL;                                 \
    }                                                                                              \
                                                                                                   \
    /* Moves every entry into `cap` fresh slots; -1 (map unchanged) when they                      \
     * cannot be had. Out of line: it is never on a hot path. */                                   \
    static __attribute__((unused, noinline)) int name##_rehash(name##_t *m, size_t cap)            \
    {                                                                                              \
        slot_t *ns = name##_alloc(cap);                                                            \
        if (!ns)                                                                                   \
            return -1;                                                                             \
        for (size_t i = 0; i < m->cap; i++)                                                        \
            if (!IS_EMPTY(&m->slots[i]))                                                           \
                *name##_hole(ns, cap - 1, SLOT_HASH(m->ctx, &m->slots[i])) = m->slots[i];          \
        FREE(m->slots);                                                                            \
        m->slots = ns;                                                                             \
        m->cap = cap;                                                                              \
        return 0;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static __attribute__((unused, noinline)) int name##_reset(name##_t *m, size_t n)               \
    {                                                                                              \
        slot_t *ns = name##_alloc(gb_hmap_cap_for(n));                                             \
        if (!ns)                                                                                   \
            return -1;                                                                             \
        FREE(m->slots);                                                                            \
        m->slots = ns;                                                                             \
        m->cap = gb_hmap_cap_for(n);                                                               \
        m->n = 0;                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) int name##_reserve(name##_t *m, size_t n)                \
    {                                                                                              \
        if (n <= m->cap / 2)                                                                       \
            return 0;                                                                              \
        return name##_rehash(m, gb_hmap_cap_for(n));                                               \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) int name##_init(name##_t *m, ctx_t ctx, size_t n)        \
    {                                                                                              \
        m->slots = NULL;                                                                           \
        m->n = m->cap = 0;                                                                         \
        m->ctx = ctx;                                                                              \
        return n ? name##_reserve(m, n) : 0;                                                       \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) void name##_free(name##_t *m)                            \
    {                                                                                              \
        FREE(m->slots);                                                                            \
        m->slots = NULL;                                                                           \
        m->n = m->cap = 0;                                                                         \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) void name##_clear(name##_t *m)                           \
    {                                                                                              \
        if (m->cap)                                                                                \
            memset(m->slots, 0, m->cap * sizeof(slot_t));                                          \
        m->n = 0;                                                                                  \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) slot_t *name##_find(const name##_t *m, key_t k)          \
    {                                                                                              \
        return m->cap ? name##_from(m, k, (size_t)HASH(m->ctx, k)) : NULL;                         \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused))                                                          \
    slot_t *name##_find_next(const name##_t *m, key_t k, const slot_t *after)                      \
    {                                                                                              \
        return name##_from(m, k, (size_t)(after - m->slots) + 1);                                  \
    }                                                                                              \
                                                                                                   \
    /* 1 when a new entry needs more slots first. */                                               \
    static inline __attribute__((unused)) int name##_full(const name##_t *m)                       \
    {                                                                                              \
        return (m->n + 1) * 2 > m->cap;                                                            \
    }                                                                                              \
                                                                                                   \
    /* Claims the empty slot `hole` for a new entry of hash h, growing first                       \
     * when the map would be more than half full. */                                               \
    static inline __attribute__((unused))                                                          \
    slot_t *name##_claim(name##_t *m, slot_t *hole, uint64_t h)                                    \
    {                                                                                              \
        if (name##_full(m)) {                                                                      \
            if (name##_reserve(m, m->n + 1) != 0)                                                  \
                return NULL;                                                                       \
            hole = name##_hole(m->slots, m->cap - 1, h);                                           \
        }                                                                                          \
        m->n++;                                                                                    \
        return hole;                                                                               \
    }                                                                                              \
                                                                                                   \
    /* One probe: it ends at the slot matching k or at the one to claim. */                        \
    static inline __attribute__((unused)) slot_t *name##_put(name##_t *m, key_t k, int *fresh)     \
    {                                                                                              \
        uint64_t h = HASH(m->ctx, k);                                                              \
        slot_t *s = NULL;                                                                          \
        size_t mask = m->cap - 1;                                                                  \
        for (size_t i = (size_t)h & mask; m->cap; i = (i + 1) & mask) {                            \
            s = &m->slots[i];                                                                      \
            if (IS_EMPTY(s))                                                                       \
                break;                                                                             \
            if (MATCH(m->ctx, s, k)) {                                                             \
                *fresh = 0;                                                                        \
                return s;                                                                          \
            }                                                                                      \
        }                                                                                          \
        *fresh = 1;                                                                                \
        return name##_claim(m, s, h);                                                              \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) void name##_unput(name##_t *m, slot_t *s)                \
    {                                                                                              \
        (void)s; /* an empty slot breaks no probe path: only the count changes */                  \
        m->n--;                                                                                    \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) slot_t *name##_add(name##_t *m, key_t k)                 \
    {                                                                                              \
        uint64_t h = HASH(m->ctx, k);                                                              \
        return name##_claim(m, m->cap ? name##_hole(m->slots, m->cap - 1, h) : NULL, h);           \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) slot_t *name##_add_reserved(name##_t *m, key_t k)        \
    {                                                                                              \
        m->n++;                                                                                    \
        return name##_hole(m->slots, m->cap - 1, HASH(m->ctx, k));                                 \
    }                                                                                              \
                                                                                                   \
    static inline __attribute__((unused)) slot_t *name##_next(const name##_t *m, size_t *pos)      \
    {                                                                                              \
        for (; *pos < m->cap; (*pos)++)                                                            \
            if (!IS_EMPTY(&m->slots[*pos]))                                                        \
                return &m->slots[(*pos)++];                                                        \
        return NULL;                                                                               \
    }

/* Type and functions together. */
#define GB_HMAP_DEFINE(name, slot_t, key_t, ctx_t, HASH, SLOT_HASH, MATCH, IS_EMPTY, CALLOC, FREE) \
    GB_HMAP_TYPE(name, slot_t, ctx_t)                                                              \
    GB_HMAP_FUNCS(name, slot_t, key_t, ctx_t, HASH, SLOT_HASH, MATCH, IS_EMPTY, CALLOC, FREE)

/* The common case, a slot whose member `key` (an integer or a pointer) is
 * the key and is 0 only in empty slots; HASH(key) needs no context. */
#define GB_HMAP_KEYED_TYPE(name, slot_t) GB_HMAP_TYPE(name, slot_t, const void *)

#define GB_HMAP_KEYED_FUNCS(name, slot_t, key_t, HASH, CALLOC, FREE)                               \
    static inline __attribute__((unused)) uint64_t name##_khash(const void *ctx, key_t k)          \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return HASH(k);                                                                            \
    }                                                                                              \
    static inline __attribute__((unused)) uint64_t name##_kslot(const void *ctx, const slot_t *s)  \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return HASH(s->key);                                                                       \
    }                                                                                              \
    static inline                                                                                  \
        __attribute__((unused)) int name##_kmatch(const void *ctx, const slot_t *s, key_t k)       \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return s->key == k;                                                                        \
    }                                                                                              \
    static inline __attribute__((unused)) int name##_kempty(const slot_t *s)                       \
    {                                                                                              \
        return !s->key;                                                                            \
    }                                                                                              \
    GB_HMAP_FUNCS(name, slot_t, key_t, const void *, name##_khash, name##_kslot, name##_kmatch,    \
                  name##_kempty, CALLOC, FREE)

#define GB_HMAP_DEFINE_KEYED(name, slot_t, key_t, HASH, CALLOC, FREE)                              \
    GB_HMAP_KEYED_TYPE(name, slot_t)                                                               \
    GB_HMAP_KEYED_FUNCS(name, slot_t, key_t, HASH, CALLOC, FREE)

#endif
