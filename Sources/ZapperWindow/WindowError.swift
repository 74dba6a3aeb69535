/// Why the window cannot open or go on, in one line a person can act on.
public enum WindowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither WAYLAND_DISPLAY nor DISPLAY is set: there is no desktop to open a window on.
    case noDesktopSession
    /// An SDL call failed; `message` is SDL's own (`SDL_GetError()`).
    case sdl(call: String, message: String)
    /// libSDL2 could not be opened (or lacks a function zapper calls); `message` is the loader's.
    case library(message: String)
    /// present() was called while the previous frame has not been shown yet.
    case flipPending

    public var description: String {
        switch self {
        case .noDesktopSession: "no desktop session (neither WAYLAND_DISPLAY nor DISPLAY is set)"
        case .sdl(let call, let message): "\(call): \(message.isEmpty ? "failed" : message)"
        case .library(let message): "SDL2 for the window: \(message)"
        case .flipPending: "window present: the last frame has not been shown yet"
        }
    }

    /// The error of the SDL call that just failed, with SDL's message.
    static func sdl(_ call: String) -> WindowError {
        .sdl(call: call, message: (try? SDLLibrary.open())?.lastError ?? "")
    }

    /// Throws the failed call's error when `code` is negative (SDL's convention).
    static func check(_ code: Int32, _ call: @autoclosure () -> String) throws(WindowError) {
        if code < 0 { throw sdl(call()) }
    }
}
