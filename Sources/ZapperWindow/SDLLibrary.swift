import CSDL2
import Glibc

/// libSDL2, opened the first time a window is asked for. zapper does not link it: a box never
/// opens a window, and SDL brings about twenty more libraries (X11, Wayland, PulseAudio, D-Bus)
/// that the dynamic loader would otherwise load and relocate at every start, a restart after a
/// crash included. Without SDL2 installed, only `--display window` fails, saying so.
struct SDLLibrary: @unchecked Sendable {  // immutable after the lookup: function addresses
    /// The library's file name (its soname, as `libsdl2-2.0-0` installs it).
    static let soname = "libSDL2-2.0.so.0"

    /// The library, opened once; the error says why it could not be.
    static let shared: Result<SDLLibrary, WindowError> = Result { () throws(WindowError) in try SDLLibrary() }

    /// The library, or why there is none.
    static func open() throws(WindowError) -> SDLLibrary { try shared.get() }

    let setHint: zapper_SDL_SetHint
    let getError: zapper_SDL_GetError
    let initSubSystem: zapper_SDL_InitSubSystem
    let quitSubSystem: zapper_SDL_QuitSubSystem
    let getCurrentVideoDriver: zapper_SDL_GetCurrentVideoDriver
    let getDisplayUsableBounds: zapper_SDL_GetDisplayUsableBounds
    let createWindow: zapper_SDL_CreateWindow
    let destroyWindow: zapper_SDL_DestroyWindow
    let getWindowDisplayMode: zapper_SDL_GetWindowDisplayMode
    let raiseWindow: zapper_SDL_RaiseWindow
    let stopTextInput: zapper_SDL_StopTextInput
    let createRenderer: zapper_SDL_CreateRenderer
    let destroyRenderer: zapper_SDL_DestroyRenderer
    let renderSetLogicalSize: zapper_SDL_RenderSetLogicalSize
    let setRenderDrawColor: zapper_SDL_SetRenderDrawColor
    let renderClear: zapper_SDL_RenderClear
    let renderCopy: zapper_SDL_RenderCopy
    let renderPresent: zapper_SDL_RenderPresent
    let createTexture: zapper_SDL_CreateTexture
    let destroyTexture: zapper_SDL_DestroyTexture
    let updateTexture: zapper_SDL_UpdateTexture
    let pollEvent: zapper_SDL_PollEvent

    private init() throws(WindowError) {
        // Kept open for the process's life (SDL's own threads may outlive a window).
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw .library(message: dlerror().map { String(cString: $0) } ?? Self.soname)
        }
        func symbol<T>(_ name: String) throws(WindowError) -> T {
            guard let address = dlsym(handle, name) else {
                throw .library(message: "\(Self.soname): no \(name) (\(dlerror().map { String(cString: $0) } ?? "not found"))")
            }
            return unsafeBitCast(address, to: T.self)
        }
        setHint = try symbol("SDL_SetHint")
        getError = try symbol("SDL_GetError")
        initSubSystem = try symbol("SDL_InitSubSystem")
        quitSubSystem = try symbol("SDL_QuitSubSystem")
        getCurrentVideoDriver = try symbol("SDL_GetCurrentVideoDriver")
        getDisplayUsableBounds = try symbol("SDL_GetDisplayUsableBounds")
        createWindow = try symbol("SDL_CreateWindow")
        destroyWindow = try symbol("SDL_DestroyWindow")
        getWindowDisplayMode = try symbol("SDL_GetWindowDisplayMode")
        raiseWindow = try symbol("SDL_RaiseWindow")
        stopTextInput = try symbol("SDL_StopTextInput")
        createRenderer = try symbol("SDL_CreateRenderer")
        destroyRenderer = try symbol("SDL_DestroyRenderer")
        renderSetLogicalSize = try symbol("SDL_RenderSetLogicalSize")
        setRenderDrawColor = try symbol("SDL_SetRenderDrawColor")
        renderClear = try symbol("SDL_RenderClear")
        renderCopy = try symbol("SDL_RenderCopy")
        renderPresent = try symbol("SDL_RenderPresent")
        createTexture = try symbol("SDL_CreateTexture")
        destroyTexture = try symbol("SDL_DestroyTexture")
        updateTexture = try symbol("SDL_UpdateTexture")
        pollEvent = try symbol("SDL_PollEvent")
    }

    /// SDL's message for the call that just failed.
    var lastError: String { getError().map { String(cString: $0) } ?? "" }
}
