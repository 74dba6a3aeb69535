#ifndef ZAPPER_CZLIB_SHIM_H
#define ZAPPER_CZLIB_SHIM_H

#include <zlib.h>

/* inflateInit2 is a macro (it passes ZLIB_VERSION and the stream's size), so
   Swift cannot call it; this does the same. */
static inline int zapper_inflate_init2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

#endif
