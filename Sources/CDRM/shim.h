#ifndef ZAPPER_CDRM_SHIM_H
#define ZAPPER_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

// Macros Swift cannot import.
static inline uint32_t zapper_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t zapper_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
static inline uint32_t zapper_drm_format_nv12(void) { return DRM_FORMAT_NV12; }
static inline uint32_t zapper_drm_format_yuv420(void) { return DRM_FORMAT_YUV420; }
#endif
