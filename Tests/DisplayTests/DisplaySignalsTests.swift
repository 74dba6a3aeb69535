import Glibc
import Testing
import ZapperDisplay

/// The host side of VT switching and hotplug: no VT or KMS device here, but the
/// signal path and the uevent socket are the real ones.
@Suite(.serialized) struct DisplaySignalsTests {
    /// Sends signals to the process (as the kernel does: any thread may run the handler)
    /// and collects the flags for up to a second.
    static func send(_ signals: [Int32]) -> (release: Bool, acquire: Bool) {
        for signal in signals { kill(getpid(), signal) }
        var seen = (release: false, acquire: false)
        let deadline = DispatchTimeShim.now() + 1
        while DispatchTimeShim.now() < deadline {
            let taken = VTSwitchSignals.take()
            seen = (seen.release || taken.release, seen.acquire || taken.acquire)
            if seen.release == signals.contains(VTSwitchSignals.releaseSignal),
               seen.acquire == signals.contains(VTSwitchSignals.acquireSignal) { break }
            usleep(1000)
        }
        return seen
    }

    @Test func vtSwitchSignalsOnlySetFlagsThatAreTakenOnce() {
        VTSwitchSignals.install()
        _ = VTSwitchSignals.take()
        #expect(Self.send([VTSwitchSignals.releaseSignal]) == (release: true, acquire: false))
        #expect(VTSwitchSignals.take() == (release: false, acquire: false))
        #expect(Self.send([VTSwitchSignals.releaseSignal, VTSwitchSignals.acquireSignal]) == (release: true, acquire: true))
        #expect(VTSwitchSignals.take() == (release: false, acquire: false))
    }

    @Test func theUEventSocketOpensAndDrainsWithoutBlocking() throws {
        let monitor: HotplugMonitor
        do {
            monitor = try HotplugMonitor()
        } catch {
            // Some sandboxes refuse netlink: then the display says so and runs without hotplug.
            #expect("\(error)".contains("uevent socket"))
            return
        }
        let started = DispatchTimeShim.now()
        _ = monitor.drain()  // whatever the host's devices do meanwhile; it must not block
        #expect(DispatchTimeShim.now() - started < 0.5)
        #expect(monitor.fileDescriptor >= 0)
    }
}

enum DispatchTimeShim {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
