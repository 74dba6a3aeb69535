#ifndef ZAPPER_CMALLOC_SHIM_H
#define ZAPPER_CMALLOC_SHIM_H

/* glibc's allocator settings (malloc.h, which Swift's Glibc module leaves out). */
#include <malloc.h>

/* M_ARENA_MAX is a macro: the most arenas glibc gives threads. */
static inline int zapper_malloc_limit_arenas(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

#endif
