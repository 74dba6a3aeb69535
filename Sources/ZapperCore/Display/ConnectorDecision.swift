/// What the display does after the connectors were read again (a hotplug uevent):
/// the rules, on plain KMS descriptions, so tests can feed it fake ones.
public enum ConnectorAction: Equatable, Sendable {
    /// Nothing that matters changed; go on with this choice (the same connector and
    /// mode: only its index in the re-read mode list may differ).
    case keep(ModeChoice)
    /// The display we drive went away and none is left: stop presenting (sound goes on).
    case lost(connector: String)
    /// Still no display: keep waiting without presenting.
    case stillWaiting
    /// Modeset this connector and mode, then present again. `note` says why a
    /// configured `--mode` was not used, when it was not.
    case modeset(ModeChoice, note: String?)
}

public enum ConnectorDecision {
    /// Decides from the connectors now (`description`) and what the display drives
    /// (`current`; `presenting` false while it waits for a display).
    ///
    /// - Without `--connector`, the connector in use stays in use while it is connected,
    ///   even when another one is plugged in; when it is gone, the first connected one
    ///   takes over.
    /// - A connector that is connected but offers no mode counts as gone.
    /// - When the display (back, or a new one) does not offer the configured `--mode`,
    ///   its preferred mode is used and the note says so: a TV swap must not leave a
    ///   black screen.
    /// - Back on the same connector without `--mode`, the mode in use is kept when the
    ///   display still offers it (the same TV plugged back needs no resize); else the
    ///   display's preferred mode.
    public static func decide(current: ModeChoice, presenting: Bool, description: KMSDescription, device: String,
                              connector connectorName: String?, mode request: ModeRequest?) -> ConnectorAction {
        let usable = description.connectors.filter { $0.connected && !$0.modes.isEmpty }
        let connector: KMSConnector
        if let connectorName {
            guard let named = usable.first(where: { $0.name.lowercased() == connectorName.lowercased() }) else {
                return presenting ? .lost(connector: current.connector.name) : .stillWaiting
            }
            connector = named
        } else if let same = usable.first(where: { $0.id == current.connector.id }) {
            connector = same
        } else if let first = usable.first {
            connector = first
        } else {
            return presenting ? .lost(connector: current.connector.name) : .stillWaiting
        }

        var note: String?
        let index: Int
        if let request {
            if let best = ModeChoice.bestIndex(in: connector.modes, for: request) {
                index = best
            } else {
                index = preferredIndex(connector.modes)
                note = "--mode \(request) is not offered by \(connector.name); using its preferred \(connector.modes[index])"
            }
        } else if connector.id == current.connector.id, let same = connector.modes.firstIndex(where: { sameTiming($0, current.mode) }) {
            index = same
        } else {
            index = preferredIndex(connector.modes)
        }
        let choice = ModeChoice(connector: connector, modeIndex: index)
        if presenting, connector.id == current.connector.id, sameTiming(choice.mode, current.mode) {
            return .keep(choice)
        }
        return .modeset(choice, note: note)
    }

    /// Size, rate and scan alike (whether it is the preferred one may differ between displays).
    static func sameTiming(_ a: KMSMode, _ b: KMSMode) -> Bool {
        a.width == b.width && a.height == b.height && a.refreshMilliHz == b.refreshMilliHz && a.interlaced == b.interlaced
    }

    static func preferredIndex(_ modes: [KMSMode]) -> Int {
        modes.firstIndex(where: \.preferred) ?? 0
    }
}
