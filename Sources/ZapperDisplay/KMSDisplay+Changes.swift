import CDRM
import Glibc
import ZapperCore

/// What `checkConnectors()` did.
public enum ConnectorChange: Equatable, Sendable {
    case unchanged
    /// The display went away: frames are paced but not shown until one is back.
    case lost(connector: String)
    /// A display (back, or another one) was modeset; `width`/`height` may have changed.
    case modeset(String)
}

extension KMSDisplay {
    /// Acts on what happened since the last call: a VT switch asked for by the
    /// kernel's signals, a display hotplug uevent. Called by `withDrawBuffer` and
    /// `waitForFlip`, so a frame loop needs nothing more; a loop that may go long
    /// without presenting should call it on every tick (a VT switch away waits for it).
    /// Failures are logged: the loop goes on, paced, without a screen.
    public func serviceEvents() {
        guard state != .closed else { return }
        if options.handleVTSwitches, terminal != nil {
            let asked = VTSwitchSignals.take()
            if asked.release { attempt("hand the screen over for a VT switch", releaseForVTSwitch) }
            if asked.acquire { attempt("take the screen back after a VT switch", acquireAfterVTSwitch) }
        }
        if let hotplug, hotplug.drain() {
            attempt("re-read the connectors after a hotplug") {
                guard try checkConnectors() == .unchanged else { return }  // the change logged itself
                switch state {
                case .active: log("display: hotplug: \(modeChoice.connector.name) \(modeChoice.mode) stays")
                case .dark: log("display: hotplug: still no display attached")
                case .suspended, .closed: break
                }
            }
        }
    }

    private func attempt(_ what: String, _ body: () throws -> Void) {
        do { try body() } catch { log("display: cannot \(what): \(error)") }
    }

    /// Re-reads the connectors (on a display hotplug) and follows `ConnectorDecision`:
    /// stop presenting when the display is gone, modeset when one is back (or another
    /// one took over, or its modes changed), without a restart. Nothing while switched
    /// away to another VT (the switch back decides afresh).
    @discardableResult
    public func checkConnectors() throws -> ConnectorChange {
        guard state == .active || state == .dark else { return .unchanged }
        let description = try device.describe()
        let action = ConnectorDecision.decide(current: modeChoice, presenting: state == .active, description: description,
                                              device: device.path, connector: options.connector, mode: options.mode)
        return try apply(action, description: description, why: "after a connector change")
    }

    /// `[display] match-frame-rate`: a mode of this size whose refresh is in the family of
    /// `pictureRate` (`RefreshMatch`), modeset now; the mode, or nil when none was needed
    /// (or the modeset failed, said in the log: the old mode is set again).
    public func matchRefresh(toPictureRate pictureRate: Double) -> String? {
        guard state == .active,
              let index = RefreshMatch.mode(for: pictureRate, current: modeChoice.mode, offered: modeChoice.connector.modes) else { return nil }
        let old = modeChoice
        var choice = old
        choice.modeIndex = index
        do {
            let description = try device.describe()
            _ = try apply(.modeset(choice, note: nil), description: description,
                          why: String(format: "for %.3g pictures a second (match-frame-rate)", pictureRate))
            return "\(choice.mode)"
        } catch {
            log("display: cannot switch to \(choice.mode) for the content's rate: \(error); staying at \(old.mode)")
            if let description = try? device.describe() { _ = try? apply(.modeset(old, note: nil), description: description, why: "again") }
            return nil
        }
    }

    private func apply(_ action: ConnectorAction, description: KMSDescription, why: String) throws -> ConnectorChange {
        switch action {
        case .keep(let choice):
            modeChoice = choice  // same mode; its index in the re-read list may differ
            return .unchanged
        case .stillWaiting:
            state = .dark
            return .unchanged
        case .lost(let name):
            settleFlip()
            state = .dark
            log("display: \(name) disconnected; not presenting until a display is attached (sound goes on)")
            return .lost(connector: name)
        case .modeset(let choice, let note):
            if let note { log("display: \(note)") }
            do {
                try setUp(description: description, choice: choice)
            } catch {
                state = .dark
                throw error
            }
            state = .active
            let what = "\(choice.connector.name) \(choice.mode)"
            log("display: modeset \(what) \(why)")
            return .modeset(what)
        }
    }

    /// Hands the screen over for a VT switch away (the release signal): restore the
    /// saved state, drop master, let the switch happen. Frames are then paced at
    /// 60 Hz without being shown.
    public func releaseForVTSwitch() throws {
        guard state == .active || state == .dark else { return }
        restoreSavedState()
        device.dropMaster()
        state = .suspended
        try terminal?.allowRelease()
        log("display: switched away to another VT; not presenting")
    }

    /// Takes the screen back after a VT switch back (the acquire signal): become
    /// master again and modeset (the connectors may have changed meanwhile); the
    /// next frame redraws the whole picture.
    public func acquireAfterVTSwitch() throws {
        guard state == .suspended else { return }
        try terminal?.acknowledgeAcquire()
        try device.becomeMaster()
        pending = nil
        state = .dark
        let description = try device.describe()
        let action = ConnectorDecision.decide(current: modeChoice, presenting: false, description: description,
                                              device: device.path, connector: options.connector, mode: options.mode)
        if action == .stillWaiting { log("display: back on our VT; no display attached") }
        _ = try apply(action, description: description, why: "back on our VT")
    }

    /// Lets a queued page flip complete (a real one while active; a paced one is just dropped).
    func settleFlip() {
        if let target = pending, state == .active {
            _ = try? waitForQueuedFlip(target, timeoutMilliseconds: 100)
        }
        pending = nil
    }

    /// Planes, buffers (when the size changed) and a modeset for `choice`.
    private func setUp(description: KMSDescription, choice: ModeChoice) throws {
        settleFlip()
        // The plane choice is logged once: again only when it changed.
        var lines: [String] = []
        let newPlan = try Self.choosePlanes(device: device, description: description, choice: choice) { lines.append($0) }
        if newPlan != plan { lines.forEach(log) }
        if choice.mode.width != width || choice.mode.height != height {
            buffers = try Self.makeBuffers(device: device, mode: choice.mode)
            front = 0
        } else if drewIntoShadow, let shadow, shadow.count <= buffers[front].stride * choice.mode.height {
            // The newest frame, drawn while the screen was not ours: show it at once, not
            // whatever was on screen before the switch.
            buffers[front].memory!.baseAddress!.copyMemory(from: shadow.baseAddress!, byteCount: shadow.count)
        }
        modeChoice = choice
        plan = newPlan
        try modeset()
    }

    static func openHotplugMonitor(log: (String) -> Void) -> HotplugMonitor? {
        do {
            return try HotplugMonitor()
        } catch {
            log("display: hotplug not watched (\(error)); a display plugged in later needs a restart")
            return nil
        }
    }

    static func enableVTSwitching(_ terminal: VirtualTerminal, log: (String) -> Void) {
        VTSwitchSignals.install()
        do {
            try terminal.enableSwitchSignals(release: VTSwitchSignals.releaseSignal, acquire: VTSwitchSignals.acquireSignal)
        } catch {
            log("display: VT switches not handled (\(error)); Ctrl+Alt+Fn may show a blank console")
        }
    }
}
