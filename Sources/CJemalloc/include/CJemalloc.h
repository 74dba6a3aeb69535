#ifndef ZAPPER_CJEMALLOC_H
#define ZAPPER_CJEMALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* jemalloc's control interface. jemalloc.h is not included: Debian's jemalloc is built without a
   prefix, and its header would declare malloc and friends a second time. */
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

/* The settings zapper builds in (jemalloc reads this symbol at its start; MALLOC_CONF in the
   environment still overrides them, for measuring). */
extern const char *malloc_conf;

/* The file of the shared object (or executable) whose malloc this process calls, or NULL. */
const char *zapper_malloc_owner(void);

/* jemalloc's settings as it reports them; each returns 0 or an errno value. */
int zapper_jemalloc_string(const char *name, const char **value);
int zapper_jemalloc_unsigned(const char *name, unsigned *value);
int zapper_jemalloc_bool(const char *name, bool *value);
int zapper_jemalloc_milliseconds(const char *name, long *value);

/* jemalloc's counters, refreshed (its "epoch" advanced) as they are read. Bytes. */
struct zapper_jemalloc_stats {
    size_t allocated; /* in the application's live allocations */
    size_t active;    /* in the pages that hold them */
    size_t metadata;  /* jemalloc's own bookkeeping */
    size_t resident;  /* jemalloc's pages in memory: the above, and freed pages not yet given back */
    size_t dirty;     /* freed pages not yet given back to the system */
};

/* 0, or an errno value (ENOENT: a jemalloc built without statistics). */
int zapper_jemalloc_read_stats(struct zapper_jemalloc_stats *stats);

#endif
