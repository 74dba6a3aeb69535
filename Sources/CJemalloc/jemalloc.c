#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/types.h>

#include "CJemalloc.h"

/* One arena for every thread (zapper's come and go with each channel change); dirty pages given
   back within a quarter of a second by jemalloc's own thread, never kept as "muzzy". See
   Allocator.swift. */
const char *malloc_conf = "narenas:1,background_thread:true,dirty_decay_ms:250,muzzy_decay_ms:0";

const char *zapper_malloc_owner(void) {
    void *address = dlsym(RTLD_DEFAULT, "malloc");
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

int zapper_jemalloc_string(const char *name, const char **value) {
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int zapper_jemalloc_unsigned(const char *name, unsigned *value) {
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int zapper_jemalloc_bool(const char *name, bool *value) {
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int zapper_jemalloc_milliseconds(const char *name, long *value) {
    ssize_t read = 0;
    size_t length = sizeof(read);
    int status = mallctl(name, &read, &length, NULL, 0);
    *value = (long)read;
    return status;
}

static int read_size(const char *name, size_t *value) {
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int zapper_jemalloc_read_stats(struct zapper_jemalloc_stats *stats) {
    uint64_t epoch = 1;
    size_t length = sizeof(epoch);
    int status = mallctl("epoch", &epoch, &length, &epoch, length);
    if (status != 0) return status;
    size_t dirty_pages = 0, page = 0;
    /* 4096: MALLCTL_ARENAS_ALL, every arena merged. */
    if ((status = read_size("stats.allocated", &stats->allocated)) != 0 ||
        (status = read_size("stats.active", &stats->active)) != 0 ||
        (status = read_size("stats.metadata", &stats->metadata)) != 0 ||
        (status = read_size("stats.resident", &stats->resident)) != 0 ||
        (status = read_size("stats.arenas.4096.pdirty", &dirty_pages)) != 0 ||
        (status = read_size("arenas.page", &page)) != 0) return status;
    stats->dirty = dirty_pages * page;
    return 0;
}
