/// Every key the configuration file knows, by section: the catalogue the reader checks each
/// table against (anything else is an unknown key, named with its line) and that
/// `Sources/zapper/README.md`'s configuration reference is held to by a test.
public enum ConfigSection: String, CaseIterable, Sendable {
    /// The top level: its own keys, and the sections' names.
    case root = ""
    case display, parental, signage, network, sound, subtitles, timeshift, schedule, metrics, api, mqtt

    /// The keys a table of this section may hold.
    public var keys: Set<String> {
        switch self {
        case .root:
            Set(["lineup", "guide", "guide-shift", "keymap", "default-channel", "merge-duplicates", "hide-dead-channels",
                 "flip-within", "flip-radio"] + Self.allCases.filter { $0 != .root }.map(\.rawValue))
        case .display: ["match-frame-rate"]
        case .parental: ["max-rating", "lock-unknown", "pin-hash", "pin-length", "unlock-timeout"]
        case .signage: ["start-muted", "no-hint", "panel-disabled", "switch-at-reminders", "picture-frozen-seconds", "picture-black-seconds",
                         "timeshift-disabled"]
        case .network: ["block-private-addresses", "user-agent", "ca-file", "connections-per-host"]
        case .sound: ["even-loudness", "loudness-target", "captions-when-muted", "languages", "audio-description", "delay-ms"]
        case .subtitles: ["languages"]
        case .timeshift: ["minutes", "memory-mb"]
        case .schedule: ["days", "from", "to", "channel", "volume", "mute", "panel", "standby"]
        case .metrics: ["listen"]
        case .api: ["token", "hostnames"]
        case .mqtt: ["broker", "username", "password", "box-id", "topic-prefix", "discovery-prefix", "ca-file"]
        }
    }
}
