import ArgumentParser
import Foundation
import ZapperCore
import ZapperDisplay
import ZapperWindow

/// Which display zapper plays on.
extension Zapper {
    /// KMS when asked for, or when `auto` finds a device; else a window when asked for, or when
    /// `auto` finds a desktop session (WAYLAND_DISPLAY or DISPLAY) that SDL opens a window on;
    /// otherwise the offscreen display. Says which, and why.
    /// The KMS display follows VT switches (Ctrl+Alt+Fn: it stops presenting while another VT
    /// has the screen, and modesets and redraws on the way back) and display hotplug by itself,
    /// from the frame loop's calls. The window is made on this (the main) thread, which then runs
    /// the player's frame loop: SDL is only ever called from it.
    func openDisplay(offscreenSize: (Int, Int), windowSize: (Int, Int)) throws -> FrameOutput {
        var why = "asked for"
        if display == .auto || display == .drm {
            do {
                var kms = KMSDisplay.Options(device: drmDevice, connector: connector)
                if let mode { kms.mode = try ModeRequest.parse(mode) }
                let output = try KMSDisplay(options: kms) { say($0) }
                return output
            } catch {
                // One line and a non-zero exit (a ValidationError would add the usage text).
                if display == .drm {
                    say("--display drm: \(error)")
                    throw ExitCode(1)
                }
                why = "no KMS display: \(error)"
            }
        }
        if display == .window || (display == .auto && WindowDisplay.desktopSession != nil) {
            do {
                let window = try WindowDisplay(width: windowSize.0, height: windowSize.1)
                say("display window \(windowSize.0)x\(windowSize.1) on \(window.session) (\(why))")
                return window
            } catch {
                if display == .window {
                    say("--display window: \(error)")
                    throw ExitCode(1)
                }
                why += "; no window: \(error)"
            }
        }
        say("display offscreen \(offscreenSize.0)x\(offscreenSize.1) (\(why))")
        return OffscreenDisplay(width: offscreenSize.0, height: offscreenSize.1)
    }
}
