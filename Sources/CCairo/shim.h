#ifndef ZAPPER_CCAIRO_SHIM_H
#define ZAPPER_CCAIRO_SHIM_H
#include <cairo.h>
#include <pango/pangocairo.h>

// PANGO_SCALE is a macro.
static inline int zapper_pango_scale(void) { return PANGO_SCALE; }
#endif
