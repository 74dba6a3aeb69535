import Foundation

/// Closes a window as a window manager does when its close button is clicked: a
/// WM_PROTOCOLS client message with WM_DELETE_WINDOW (Xvfb has no window manager,
/// and Debian 12's xdotool has no `windowclose`). libX11 is opened at run time
/// (SDL2 depends on it), so the tests need no X11 module of their own.
enum WindowCloser {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    private typealias InternAtom = @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32) -> UInt
    private typealias SendEvent = @convention(c) (OpaquePointer, UInt, Int32, Int, UnsafeMutableRawPointer) -> Int32
    private typealias DisplayCall = @convention(c) (OpaquePointer) -> Int32

    /// Sends WM_DELETE_WINDOW to `window` on `display` (":N").
    static func close(window: UInt, display: String) throws {
        guard let library = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL) else {
            throw Failure(description: "libX11.so.6: \(String(cString: dlerror()))")
        }
        defer { dlclose(library) }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(library, name) else { throw Failure(description: "libX11 has no \(name)") }
            return unsafeBitCast(address, to: type)
        }
        let openDisplay = try symbol("XOpenDisplay", as: OpenDisplay.self)
        let internAtom = try symbol("XInternAtom", as: InternAtom.self)
        let sendEvent = try symbol("XSendEvent", as: SendEvent.self)
        let flush = try symbol("XFlush", as: DisplayCall.self)
        let closeDisplay = try symbol("XCloseDisplay", as: DisplayCall.self)
        guard let connection = openDisplay(display) else { throw Failure(description: "cannot open display \(display)") }
        defer { _ = closeDisplay(connection) }
        // XClientMessageEvent on LP64, inside the 192-byte XEvent union: type, serial, send_event,
        // display, window, message_type, format, then data.l[5].
        var event = [UInt8](repeating: 0, count: 192)
        event.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: Int32(33), toByteOffset: 0, as: Int32.self)  // ClientMessage
            bytes.storeBytes(of: window, toByteOffset: 32, as: UInt.self)
            bytes.storeBytes(of: internAtom(connection, "WM_PROTOCOLS", 0), toByteOffset: 40, as: UInt.self)
            bytes.storeBytes(of: Int32(32), toByteOffset: 48, as: Int32.self)
            bytes.storeBytes(of: internAtom(connection, "WM_DELETE_WINDOW", 0), toByteOffset: 56, as: UInt.self)
        }
        let sent = event.withUnsafeMutableBytes { sendEvent(connection, window, 0, 0, $0.baseAddress!) }
        guard sent != 0 else { throw Failure(description: "XSendEvent failed") }
        _ = flush(connection)
    }
}
