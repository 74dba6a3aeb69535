#ifndef ZAPPER_CSDL2_SHIM_H
#define ZAPPER_CSDL2_SHIM_H
// zapper has its own main: SDL must not rename it.
#define SDL_MAIN_HANDLED
#include <SDL2/SDL.h>

// Macros Swift cannot import.
static inline int zapper_sdl_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }

// zapper does not link libSDL2: it opens it (dlopen) when a window is asked for
// (ZapperWindow's SDLLibrary). The types of the functions it looks up there:
#define ZAPPER_SDL_FUNCTION(name) typedef __typeof__(&name) zapper_##name;
ZAPPER_SDL_FUNCTION(SDL_SetHint)
ZAPPER_SDL_FUNCTION(SDL_GetError)
ZAPPER_SDL_FUNCTION(SDL_InitSubSystem)
ZAPPER_SDL_FUNCTION(SDL_QuitSubSystem)
ZAPPER_SDL_FUNCTION(SDL_GetCurrentVideoDriver)
ZAPPER_SDL_FUNCTION(SDL_GetDisplayUsableBounds)
ZAPPER_SDL_FUNCTION(SDL_CreateWindow)
ZAPPER_SDL_FUNCTION(SDL_DestroyWindow)
ZAPPER_SDL_FUNCTION(SDL_GetWindowDisplayMode)
ZAPPER_SDL_FUNCTION(SDL_RaiseWindow)
ZAPPER_SDL_FUNCTION(SDL_StopTextInput)
ZAPPER_SDL_FUNCTION(SDL_CreateRenderer)
ZAPPER_SDL_FUNCTION(SDL_DestroyRenderer)
ZAPPER_SDL_FUNCTION(SDL_RenderSetLogicalSize)
ZAPPER_SDL_FUNCTION(SDL_SetRenderDrawColor)
ZAPPER_SDL_FUNCTION(SDL_RenderClear)
ZAPPER_SDL_FUNCTION(SDL_RenderCopy)
ZAPPER_SDL_FUNCTION(SDL_RenderPresent)
ZAPPER_SDL_FUNCTION(SDL_CreateTexture)
ZAPPER_SDL_FUNCTION(SDL_DestroyTexture)
ZAPPER_SDL_FUNCTION(SDL_UpdateTexture)
ZAPPER_SDL_FUNCTION(SDL_PollEvent)
#undef ZAPPER_SDL_FUNCTION
#endif
