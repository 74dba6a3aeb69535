import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore

/// The real `zapper` binary on a desktop: under a real X server (Xvfb) `--display auto` opens a
/// window, says so, the screen shows the channel in it, and a key typed into it changes channel.
/// Without a desktop, `--display window` refuses in one line and `auto` goes offscreen.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct WindowTests {
    func demoLineup() async throws -> String {
        try await offPool {
            let origin = try OriginProcess.shared.get()
            return try RawHTTPConnection.fetch(port: origin.port, "GET", "/demo.m3u").text
        }
    }

    /// (red, green, blue) medians of a rectangle of a PNG.
    func medianColour(_ png: URL, x: Int, y: Int, width: Int, height: Int) async throws -> (Int, Int, Int) {
        let raw = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png.path, "-vf", "crop=\(width):\(height):\(x):\(y)",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(raw.status == 0 && !raw.stdout.isEmpty, "\(raw.stderr)")
        return medianRGB([UInt8](raw.stdout))
    }

    /// Screenshots of the X screen until the window's rectangle shows the channel's colour
    /// (the tuning card fades out first), for up to 30 s; the last one stays at `png`.
    func screenShowsChannel(_ number: Int, in window: (x: Int, y: Int, width: Int, height: Int),
                            of server: XServer, png: URL) async throws -> Bool {
        let expected = try #require(try Repo.catalog().channel(number: number)?.rgb)
        let deadline = Date().addingTimeInterval(30)
        repeat {
            try await server.screenshot(to: png)
            let seen = try await medianColour(png, x: window.x, y: window.y, width: window.width, height: window.height)
            if abs(seen.0 - Int(expected.red)) + abs(seen.1 - Int(expected.green)) + abs(seen.2 - Int(expected.blue)) < 45 {
                return true
            }
            try await Task.sleep(for: .milliseconds(500))
        } while Date() < deadline
        return false
    }

    @Test(.enabled(if: XServer.installed || XServer.required,
                   "Xvfb is not installed (apt-get install xvfb x11-apps xdotool); with CI set this test fails instead"))
    func showsTheChannelInAWindowAndTakesItsKeys() async throws {
        let lineup = try await demoLineup()
        try await XServer.running { server in
            try await playInAWindow(lineup: lineup, on: server)
        }
    }

    /// zapper in a window on `server`: the screen, a key, the close (the server is ended by the caller).
    func playInAWindow(lineup: String, on server: XServer) async throws {
        // `auto`: KMS is not free (a card that is not there), a desktop is: the window.
        let zapper = try WindowedZapper(lineup: lineup,
                                        arguments: ["--channel", "1", "--size", "1280x720", "--audio-device", "none",
                                                    "--drm-device", "/nonexistent/dri/card0"],
                                        environment: ["DISPLAY": server.display, "WAYLAND_DISPLAY": nil])
        defer { zapper.kill() }
        let shot = zapper.directory.appendingPathComponent("screen.png")

        #expect(await zapper.waitFor(.firstFrame, seconds: 90) { $0.event.channel == 1 }, "\(zapper.stderr)")
        let said = zapper.stderr.split(separator: "\n").filter { $0.hasPrefix("zapper: display ") }
        #expect(said.count == 1 && said[0].hasPrefix("zapper: display window 1280x720 on x11 \(server.display) (no KMS display: "),
                "\(zapper.stderr)")
        // The window holds the whole picture (it fits the 1280x800 screen), and shows channel 1.
        let window = try await server.geometry(ofWindowNamed: "Zapper")
        #expect(window.width == 1280 && window.height == 720, "\(window)")
        #expect(try await screenShowsChannel(1, in: window, of: server, png: shot), "see \(shot.path)")

        // Page Up typed into the window (XTEST, as a keyboard would): channel up.
        let focus = try await server.run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^Zapper$", "windowfocus", "--sync"])
        #expect(focus.status == 0, "\(focus.stderr)")
        let key = try await server.run("xdotool", ["key", "Page_Up"])
        #expect(key.status == 0, "\(key.stderr)")
        #expect(await zapper.waitFor(.tune, seconds: 30) { $0.event.channel == 2 }, "\(zapper.stderr)")
        // One press, by its evdev name: no repeats, nothing twice.
        #expect(zapper.named(.key).map { if case let .key(name, action, _) = $0.event { "\(name) \(action)" } else { "-" } } == ["KEY_PAGEUP channel-up"])
        #expect(await zapper.waitFor(.firstFrame, seconds: 60) { $0.event.channel == 2 }, "\(zapper.stderr)")
        #expect(try await screenShowsChannel(2, in: window, of: server, png: shot), "see \(shot.path)")

        // Closing the window (as a window manager's close button does) ends zapper cleanly.
        let id = try await server.window(named: "Zapper")
        let display = server.display
        try await offPool { try WindowCloser.close(window: id, display: display) }
        let run = await zapper.finish()
        #expect(run.status == 0 && run.stderr.contains("zapper: stopping"), "\(run.stderr)")
    }

    /// A lineup that is never fetched: these runs end before or without playing.
    static let deadLineup = "#EXTM3U\n#EXTINF:-1,Dead\nhttp://127.0.0.1:9/x.m3u8\n"

    @Test func windowAskedForWithoutADesktopIsOneLineAndExit1() async throws {
        let zapper = try WindowedZapper(lineup: Self.deadLineup, arguments: ["--display", "window"],
                                        environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        defer { zapper.kill() }
        let run = await zapper.finish()
        #expect(run.status == 1)
        #expect(run.stderr == "zapper: --display window: no desktop session (neither WAYLAND_DISPLAY nor DISPLAY is set)\n")
    }

    /// SDL2 is opened when a window is asked for, not linked: a start (a box's restart after a
    /// crash too) loads none of its libraries (X11, Wayland, PulseAudio, D-Bus).
    @Test func zapperDoesNotLinkSDL2() async throws {
        let run = try await Tool.run("ldd", [Repo.productsDirectory.appendingPathComponent("zapper").path])
        let listing = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing.contains("libavformat"), "\(listing)")
        #expect(!listing.contains("libSDL2"), "\(listing)")
    }

    @Test func autoGoesOffscreenWhenNoWindowOpens() async throws {
        // A display no server listens on.
        let free = (4200..<4300).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 4299
        let zapper = try WindowedZapper(lineup: Self.deadLineup, arguments: ["--drm-device", "/nonexistent/dri/card0", "--size", "320x180", "--audio-device", "none"],
                                        environment: ["DISPLAY": ":\(free)", "WAYLAND_DISPLAY": nil], script: "quit\n")
        defer { zapper.kill() }
        let run = await zapper.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.stderr.split(separator: "\n").filter { $0.hasPrefix("zapper: display ") }
        #expect(said.count == 1, "\(run.stderr)")
        #expect(said.first?.hasPrefix("zapper: display offscreen 320x180 (no KMS display: ") == true, "\(run.stderr)")
        #expect(said.first?.contains("; no window: SDL_Init(video): ") == true, "\(run.stderr)")
    }
}
