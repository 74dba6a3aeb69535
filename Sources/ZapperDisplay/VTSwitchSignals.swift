import Glibc
import Synchronization

/// The kernel's VT switch requests (VT_PROCESS mode): its release and acquire
/// signals only set flags here; the display acts on them from the event loop
/// (`KMSDisplay.serviceEvents()`), never in the handler.
public enum VTSwitchSignals {
    public static let releaseSignal = SIGUSR1
    public static let acquireSignal = SIGUSR2

    static let releaseRequested = Atomic<Bool>(false)
    static let acquireRequested = Atomic<Bool>(false)

    /// Installs the handlers (before the VT is put in VT_PROCESS mode: the default
    /// action of SIGUSR1/SIGUSR2 would end the process).
    public static func install() {
        signal(releaseSignal) { _ in VTSwitchSignals.releaseRequested.store(true, ordering: .sequentiallyConsistent) }
        signal(acquireSignal) { _ in VTSwitchSignals.acquireRequested.store(true, ordering: .sequentiallyConsistent) }
    }

    /// What was asked since the last call (and forgets it).
    public static func take() -> (release: Bool, acquire: Bool) {
        (releaseRequested.exchange(false, ordering: .sequentiallyConsistent),
         acquireRequested.exchange(false, ordering: .sequentiallyConsistent))
    }
}
