#ifndef ZAPPER_CMALLOC_SHIM_H
#define ZAPPER_CMALLOC_SHIM_H

/* glibc's allocator settings (malloc.h, which Swift's Glibc module leaves out). */
#include <malloc.h>

/* M_ARENA_MAX is a macro: the most arenas glibc gives threads. */
static inline int zapper_malloc_limit_arenas(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

/* M_MMAP_THRESHOLD is a macro: allocations of at least `bytes` get pages of their own,
   given back when freed. Setting it also stops glibc from raising it by itself. */
static inline int zapper_malloc_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

#endif
