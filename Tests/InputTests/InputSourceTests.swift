import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperInput

/// The real InputSource (libudev, libinput, libevdev) on this machine. Build
/// machines have no /dev/input and no /dev/uinput, so no device can be made
/// here: reading real devices (a virtio keyboard, a uinput gamepad, the
/// rc-loopback IR receiver) belongs to the QEMU system tests.
@Suite(.serialized) struct InputSourceTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func startsAndStopsWithNoDevices() throws {
        try #require(!FileManager.default.fileExists(atPath: "/dev/input/event0"), "this machine has input devices")
        let log = Lines(), keys = Lines()
        let source = try InputSource(log: log.append, onKey: { keys.append($0.description) })
        #expect(source.deviceNames.isEmpty)
        // The input thread opens the devices: `seatProblem` waits for it.
        let seatProblem = source.seatProblem
        #expect(log.all.contains("input: no input devices yet; waiting for hotplug"), "\(log.all)")
        // Whatever the seat did, it says so in one readable line or not at all.
        if let problem = seatProblem {
            #expect(log.all.contains { $0.hasPrefix("input: ") && $0.contains(problem) }, "\(log.all)")
        }
        let started = ContinuousClock.now
        source.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        source.stop()                                   // twice is harmless
        #expect(keys.all.isEmpty)
    }

    @Test func manySourcesComeAndGo() async throws {
        // Counted with no thousand descriptors coming and going beside it (`DescriptorCensus`).
        let census = await DescriptorCensus.shared.hold()
        defer { census.release() }
        // Each one opens and frees a udev context, a libinput context, a monitor and an eventfd.
        // One first, so what the libraries open once per process is not counted.
        try InputSource(log: { _ in }, onKey: { _ in }).stop()
        let before = try Self.kernelObjectDescriptors()
        for _ in 0..<80 {
            let source = try InputSource(log: { _ in }, onKey: { _ in })
            source.stop()
        }
        for _ in 0..<20 {
            _ = try InputSource(log: { _ in }, onKey: { _ in })   // deinit stops it
        }
        let after = try Self.kernelObjectDescriptors()
        // A leak of even one fd per source would be 100; the tests running beside this one open
        // and close their own (HTTP connections, files): seen up to +7 in one run, so allow 16.
        #expect(after <= before + 16, "fds leaked: \(before) -> \(after)")
    }

    /// The process's descriptors of the kinds an input source opens: sockets (the udev monitor) and
    /// anonymous inodes (epoll, eventfd, timerfd); open files are not counted.
    static func kernelObjectDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { name in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? "/"
            return !target.hasPrefix("/")
        }.count
    }

    @Test func anUnknownSeatIsFineToo() throws {
        let log = Lines()
        let source = try InputSource(seat: "seat-that-does-not-exist", log: log.append, onKey: { _ in })
        defer { source.stop() }
        #expect(source.deviceNames.isEmpty)
    }
}
