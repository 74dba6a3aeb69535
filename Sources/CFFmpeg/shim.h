#ifndef ZAPPER_CFFMPEG_SHIM_H
#define ZAPPER_CFFMPEG_SHIM_H
#include <stdarg.h>
#include <stdio.h>
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
// FFmpeg's log callback is variadic (a va_list), which Swift cannot write: this one formats
// the text and hands it, with its level and the name of what logged it ("mpegts", "h264"),
// to a plain C callback set from Swift.
typedef void (*zapper_av_log_sink)(int level, const char *component, const char *message);
static inline zapper_av_log_sink *zapper_av_log_slot(void) {
    static zapper_av_log_sink slot;
    return &slot;
}

// FFmpeg writes some lines in pieces ("Packet corrupt (…)" then "."): pieces are gathered per
// thread until the line ends.
static void zapper_av_log_callback(void *object, int level, const char *format, va_list arguments) {
    static __thread char line[1024];
    static __thread size_t used;
    if (level > av_log_get_level()) return;
    zapper_av_log_sink sink = *zapper_av_log_slot();
    if (!sink) return;
    if (used < sizeof line - 1) {
        int written = vsnprintf(line + used, sizeof line - used, format, arguments);
        if (written > 0) used += (size_t)written < sizeof line - used ? (size_t)written : sizeof line - used - 1;
    }
    if (used > 0 && line[used - 1] != '\n' && used < sizeof line - 1) return;
    const char *component = "";
    if (object) {
        const AVClass *class = *(const AVClass **)object;
        if (class) component = class->item_name ? class->item_name(object) : (class->class_name ? class->class_name : "");
    }
    sink(level, component ? component : "", line);
    used = 0;
    line[0] = 0;
}

static inline void zapper_av_log_route(zapper_av_log_sink sink, int level) {
    *zapper_av_log_slot() = sink;
    av_log_set_level(level);
    av_log_set_callback(zapper_av_log_callback);
}
static inline int zapper_av_log_warning(void) { return AV_LOG_WARNING; }
static inline int zapper_av_log_error(void) { return AV_LOG_ERROR; }
#endif
