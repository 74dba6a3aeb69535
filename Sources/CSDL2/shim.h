#ifndef ZAPPER_CSDL2_SHIM_H
#define ZAPPER_CSDL2_SHIM_H
// zapper has its own main: SDL must not rename it.
#define SDL_MAIN_HANDLED
#include <SDL.h>

// Macros Swift cannot import.
static inline int zapper_sdl_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
#endif
