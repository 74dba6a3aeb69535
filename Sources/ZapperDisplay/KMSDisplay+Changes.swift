import CDRM
import Glibc
import ZapperCore

/// What `checkConnectors()` found.
public enum ConnectorChange: Equatable, Sendable {
    case unchanged
    /// The display went away; frames keep being flipped (the CRTC stays on) until it is back.
    case lost(connector: String)
    /// A display (back, or another one) was modeset; `width`/`height` may have changed.
    case modeset(String)
}

extension KMSDisplay {
    /// Re-reads the connectors (call it on a udev "drm" change uevent) and re-modesets
    /// when the display came back or its modes changed, without a restart.
    public func checkConnectors() throws -> ConnectorChange {
        guard state == .active else { return .unchanged }
        let description = try device.describe()
        let choice: ModeChoice
        do {
            choice = try ModeChoice.choose(in: description, device: device.path,
                                           connector: options.connector, mode: options.mode)
        } catch KMSError.noConnectedConnector, KMSError.connectorNotConnected {
            guard connectorPresent else { return .unchanged }
            connectorPresent = false
            log("display: \(modeChoice.connector.name) disconnected; waiting for a display")
            return .lost(connector: modeChoice.connector.name)
        }
        if connectorPresent, choice.connector.id == modeChoice.connector.id, choice.mode == modeChoice.mode {
            modeChoice = choice  // same mode; its index in the re-read list may differ
            return .unchanged
        }
        try setUp(description: description, choice: choice)
        connectorPresent = true
        let what = "\(choice.connector.name) \(choice.mode)"
        log("display: modeset \(what) after a connector change")
        return .modeset(what)
    }

    /// Hands the screen over for a VT switch away (the release signal from
    /// `VirtualTerminal.enableSwitchSignals`): restore the saved state, drop master,
    /// let the switch happen. Frames are then paced at 60 Hz without being shown.
    public func releaseForVTSwitch() throws {
        guard state == .active else { return }
        restoreSavedState()
        device.dropMaster()
        state = .suspended
        try terminal?.allowRelease()
    }

    /// Takes the screen back after a VT switch back (the acquire signal): become
    /// master again and modeset (the connectors may have changed meanwhile).
    public func acquireAfterVTSwitch() throws {
        guard state == .suspended else { return }
        try terminal?.acknowledgeAcquire()
        try device.becomeMaster()
        pending = nil
        state = .active
        let description = try device.describe()
        let choice = try ModeChoice.choose(in: description, device: device.path,
                                           connector: options.connector, mode: options.mode)
        try setUp(description: description, choice: choice)
    }

    /// Planes, buffers (when the size changed) and a modeset for `choice`.
    private func setUp(description: KMSDescription, choice: ModeChoice) throws {
        if pending != nil { _ = try waitForFlip(timeoutMilliseconds: 100) }
        pending = nil
        // The plane choice is logged once: again only when it changed.
        var lines: [String] = []
        let newPlan = try Self.choosePlanes(device: device, description: description, choice: choice) { lines.append($0) }
        if newPlan != plan { lines.forEach(log) }
        if choice.mode.width != width || choice.mode.height != height {
            buffers = try Self.makeBuffers(device: device, mode: choice.mode)
            front = 0
        }
        modeChoice = choice
        plan = newPlan
        try modeset()
    }
}
