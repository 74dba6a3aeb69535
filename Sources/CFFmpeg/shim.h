#ifndef ZAPPER_CFFMPEG_SHIM_H
#define ZAPPER_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/channel_layout.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

// Macros Swift cannot import.
static inline int zapper_averror(int errnum) { return AVERROR(errnum); }
static inline int zapper_averror_eof(void) { return AVERROR_EOF; }
static inline int zapper_averror_exit(void) { return AVERROR_EXIT; }
static inline int zapper_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t zapper_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int zapper_av_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }
#endif
