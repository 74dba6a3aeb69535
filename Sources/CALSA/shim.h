#ifndef ZAPPER_CALSA_SHIM_H
#define ZAPPER_CALSA_SHIM_H
#include <alsa/asoundlib.h>

// snd_pcm_*_alloca are macros; these heap-allocating twins are what Swift calls.
static inline int zapper_snd_pcm_hw_params_new(snd_pcm_hw_params_t **out) { return snd_pcm_hw_params_malloc(out); }
static inline int zapper_snd_pcm_sw_params_new(snd_pcm_sw_params_t **out) { return snd_pcm_sw_params_malloc(out); }
#endif
