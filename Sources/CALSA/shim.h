#ifndef ZAPPER_CALSA_SHIM_H
#define ZAPPER_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

// snd_pcm_*_alloca are macros; these heap-allocating twins are what Swift calls.
static inline int zapper_snd_pcm_hw_params_new(snd_pcm_hw_params_t **out) { return snd_pcm_hw_params_malloc(out); }
static inline int zapper_snd_pcm_sw_params_new(snd_pcm_sw_params_t **out) { return snd_pcm_sw_params_malloc(out); }

// ALSA prints its own error text to stderr through a variadic handler, which Swift
// cannot write. This one formats the text and hands it to a plain C callback (set
// from Swift). Set and install it from one Swift file: the slot is per file.
typedef void (*zapper_alsa_error_sink)(const char *message);
static inline zapper_alsa_error_sink *zapper_alsa_error_slot(void) {
    static zapper_alsa_error_sink slot;
    return &slot;
}

static void zapper_alsa_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    char text[512];
    va_list arguments;
    va_start(arguments, fmt);
    vsnprintf(text, sizeof text, fmt, arguments);
    va_end(arguments);
    zapper_alsa_error_sink target = *zapper_alsa_error_slot();
    if (target) {
        char message[768];
        if (err != 0) {
            snprintf(message, sizeof message, "%s: %s (%s)", function ? function : "?", text, snd_strerror(err));
        } else {
            snprintf(message, sizeof message, "%s: %s", function ? function : "?", text);
        }
        target(message);
    }
}

static inline void zapper_alsa_route_errors(zapper_alsa_error_sink sink) {
    *zapper_alsa_error_slot() = sink;
    snd_lib_error_set_handler(zapper_alsa_error_handler);
}
#endif
