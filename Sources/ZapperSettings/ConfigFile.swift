import Foundation
import TOMLKit
import ZapperCore

/// Reads the configuration file (TOML) into a `ZapperConfig`.
///
/// The default file is `/etc/zapper/zapper.toml`; when it is missing the
/// defaults apply. A file named with `--config` must exist. Unknown keys and
/// values of the wrong type are errors that name the file, the line and the
/// key; all of a file's problems are reported at once. Every key is optional:
///
/// ```toml
/// # /etc/zapper/zapper.toml
///
/// # The lineup: an M3U Plus file or an http(s) URL (the command line's lineup wins).
/// lineup = "/etc/zapper/channels.m3u"
/// # XMLTV guide, file or http(s); default: the lineup's url-tvg.
/// guide = "https://guide.example.net/guide.xml.gz"
/// # Hours added to the guide's times (a guide written for another time zone; -24 to 24, may be
/// # fractional); a channel's own tvg-shift wins.
/// guide-shift = 0
/// # A keymap file laid over the default bindings.
/// keymap = "/etc/zapper/keymap"
/// # Tuned when no last channel is remembered.
/// default-channel = 1
/// # Entries with the same tvg-id and name (quality tags such as "(720p)", "HD" aside) become
/// # one channel whose streams are tried in turn; false keeps each entry a channel of its own.
/// merge-duplicates = true
/// # Leave the channels the last `zapper check` found dead out of the panel's list.
/// hide-dead-channels = false
/// # What CH± steps through: "all", "favourites" (all while there are none) or "group"
/// # (the group-title of the channel on screen).
/// flip-within = "all"
/// # CH± steps onto radio channels (radio="true" in the lineup) too; false skips them (typed numbers still reach them).
/// flip-radio = true
///
/// [parental]
/// # The highest rating watched without the PIN: an age (12) or a rating
/// # ("PG-13", "TV-14", "FSK 16", "15", "18"). Leave it out to turn parental control off.
/// max-rating = "TV-14"
/// # Also lock channels and programmes with no rating or one we do not know.
/// lock-unknown = false
/// # The PIN's hash, as PINHash.hash(pin:) writes it (this example's is of no real PIN:
/// # make your own). Let root write this file and the zapper user read it: 0640 root:zapper.
/// pin-hash = "sha256:50000:00112233445566778899aabbccddeeff:7c9f1b6b4a4e1e0b8d1f3ad5a1f3f5c6f8b0b2a4c6d8e0f2a4b6c8d0e2f4a6b8"
/// # Digits in the PIN.
/// pin-length = 4
/// # How long an unlock lasts on one channel, in seconds (it also ends when the channel changes).
/// unlock-timeout = 14400
///
/// [signage]
/// # For screens nobody operates: start muted, never show the "swipe up" hint, never open the panel.
/// start-muted = false
/// no-hint = false
/// panel-disabled = false
/// # Tune a reminder's channel by itself when its programme starts.
/// switch-at-reminders = false
/// # The picture watch: a channel whose pictures show the same thing, or only black, for this
/// # many seconds is tuned again (0 turns that check off).
/// picture-frozen-seconds = 10
/// picture-black-seconds = 10
///
/// [network]
/// # For lineups from sources you do not trust: nothing they list (streams, guide, logos, and
/// # where those redirect) may reach a loopback, link-local or private address.
/// block-private-addresses = false
/// # A provider that allows this many connections at once (the playing channel and the warm
/// # neighbours on its host count): fewer neighbours are kept warm. Leave it out: no limit.
/// # connections-per-host = 1
/// # The User-Agent of every request whose channel names none of its own (logos, the guide too).
/// user-agent = "Zapper/<version>"
/// # Certificate authorities (PEM) trusted for https besides the system's store.
/// ca-file = "/etc/zapper/private-ca.pem"
///
/// [sound]
/// # Even loudness: each channel brought toward the target (LUFS, -40 to -10) as it plays.
/// even-loudness = true
/// loudness-target = -23
/// # Closed captions (the channel's first, CC1 usually) show while the sound is muted.
/// captions-when-muted = false
/// # The sound played where nobody chose a track: the first of these languages a channel has
/// # (ISO 639-1 or -2), and its audio description first when true.
/// languages = ["eng", "deu"]
/// audio-description = false
/// # Lip sync for a display that delays its picture: pictures this much earlier (ms, -500 to 500).
/// delay-ms = 0
///
/// [display]
/// # On KMS, switch the mode's refresh to the content's family (50 Hz for 25/50, 59.94 for
/// # 29.97/59.94, 24 for film) when a channel's pictures come; at most once a flip.
/// match-frame-rate = false
///
/// [subtitles]
/// # Subtitles shown where nobody chose any: the first of these languages a channel has.
/// languages = []
///
/// # Day-parting, in the box's time zone: each entry on some days (mon … sun, weekdays,
/// # weekends, daily) from one time to another (overnight when "to" is earlier), setting a
/// # channel, volume, mute, the panel, or standby (the screen blank, the TV to standby over CEC).
/// [[schedule]]
/// days = ["weekdays"]
/// from = "07:00"
/// to = "09:00"
/// channel = 1
/// volume = 40
///
/// [metrics]
/// # Serve Prometheus metrics at GET /metrics on this address (IPv4, [IPv6] or localhost, and a
/// # port; 0 takes a free one). Leave it out: no metrics are served.
/// listen = "127.0.0.1:9464"
/// ```
///
/// `[mqtt]` (a broker for a fleet and Home Assistant) is read by `ConfigFile+MQTT`.
public enum ConfigFile {
    public static let defaultPath = "/etc/zapper/zapper.toml"
    /// The largest configuration file read.
    public static let maxBytes = 1 << 20

    /// Reads `path`, or the default path when `path` is `nil` (then a missing
    /// file gives the defaults).
    public static func load(path: String?) throws(ConfigFileError) -> ZapperConfig {
        let file = path ?? defaultPath
        // Its size before its bytes (a configuration is a few kB; ten thousand schedule entries, 600).
        if let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber, size.intValue > maxBytes {
            throw ConfigFileError(file: file, problems: [.init(line: nil, key: nil,
                                                               message: "is \(size.intValue) bytes, more than the \(maxBytes) a configuration may be")])
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            let missing = !FileManager.default.fileExists(atPath: file)
            if missing, path == nil { return ZapperConfig() }
            throw ConfigFileError(file: file, problems: [.init(line: nil, key: nil, message: missing
                ? "no such file" : "cannot be read (\((error as NSError).localizedDescription))")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(file: file, problems: [.init(line: nil, key: nil, message: "is not UTF-8 text")])
        }
        return try parse(text, file: file)
    }

    /// `hostName` gives `[mqtt]`'s default `box-id`.
    public static func parse(_ text: String, file: String, hostName: String = ConfigFile.hostName()) throws(ConfigFileError) -> ZapperConfig {
        if let (line, message) = TOMLPrecheck.firstProblem(in: text) {
            throw ConfigFileError(file: file, problems: [.init(line: line, key: nil, message: message)])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(file: file, problems: [.init(line: error.source.begin.line, key: nil,
                                                               message: error.description)])
        } catch {
            throw ConfigFileError(file: file, problems: [.init(line: nil, key: nil, message: "\(error)")])
        }
        var reader = Reader(text: text)
        var config = reader.read(table)
        if let mqtt = reader.subtable(table, "mqtt") { config.mqtt = reader.readMQTT(mqtt, hostName: hostName) }
        if !reader.problems.isEmpty {
            throw ConfigFileError(file: file, problems: reader.problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        config.notes = ConfigFileError(file: file, problems: reader.notes).description.split(separator: "\n").map(String.init)
        return config
    }

    /// Walks the table, collecting a problem for each unknown key or bad value.
    struct Reader {
        let lines: [Substring]
        var problems: [ConfigFileError.Problem] = []
        /// What is said but does not stop the box (the part of a list over its bound, left out).
        var notes: [ConfigFileError.Problem] = []

        init(text: String) {
            lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        }

        mutating func read(_ root: TOMLTable) -> ZapperConfig {
            var config = ZapperConfig()
            check(root, section: nil, known: ConfigSection.root.keys)
            config.lineup = string(root, "lineup", section: nil)
            config.guide = string(root, "guide", section: nil)
            config.keymap = string(root, "keymap", section: nil)
            if let shift = root["guide-shift"] {
                // TOML writes 2 as an integer and 5.5 as a float: both are hours.
                let hours = shift.double ?? shift.int.map(Double.init)
                switch hours.map({ GuideShift.hours(String($0)) }) {
                case .success(let hours)?: config.guideShift = hours
                case .failure(let rejection)?: fail("guide-shift", nil, "\(rejection)")
                case nil: fail("guide-shift", nil, "expected a number of hours, found \(shift.type)")
                }
            }
            if let channel = int(root, "default-channel", section: nil) {
                if channel > 0 { config.defaultChannel = channel } else { fail("default-channel", nil, "must be a channel number (1 or more)") }
            }
            config.mergeDuplicates = bool(root, "merge-duplicates", section: nil) ?? true
            config.hideDeadChannels = bool(root, "hide-dead-channels", section: nil) ?? false
            config.flipRadio = bool(root, "flip-radio", section: nil) ?? true
            if let within = string(root, "flip-within", section: nil) {
                if let choice = FlipWithin(rawValue: within) {
                    config.flipWithin = choice
                } else {
                    fail("flip-within", nil, "\"\(within)\" is not one of \(FlipWithin.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
            if let parental = subtable(root, "parental") {
                let section = "parental"
                check(parental, section: section, known: ConfigSection.parental.keys)
                config.parental.maxAge = maxAge(parental)
                config.parental.lockUnknown = bool(parental, "lock-unknown", section: section) ?? false
                if let hash = string(parental, "pin-hash", section: section) {
                    if PINHash.isWellFormed(hash) { config.parental.pinHash = hash } else {
                        fail("pin-hash", section, "is not a PIN hash (sha256:<iterations>:<salt hex>:<hash hex>)")
                    }
                }
                if let length = int(parental, "pin-length", section: section) {
                    if (1...12).contains(length) { config.parental.pinLength = length } else {
                        fail("pin-length", section, "must be 1 to 12 digits, not \(length)")
                    }
                }
                if let timeout = int(parental, "unlock-timeout", section: section) {
                    if (1...31_536_000).contains(timeout) { config.parental.unlockTimeout = timeout } else {
                        fail("unlock-timeout", section, "must be 1 to 31536000 seconds (a year), not \(timeout)")
                    }
                }
            }
            if let signage = subtable(root, "signage") {
                let section = "signage"
                check(signage, section: section, known: ConfigSection.signage.keys)
                config.signage.startMuted = bool(signage, "start-muted", section: section) ?? false
                config.signage.noHint = bool(signage, "no-hint", section: section) ?? false
                config.signage.panelDisabled = bool(signage, "panel-disabled", section: section) ?? false
                config.signage.switchAtReminders = bool(signage, "switch-at-reminders", section: section) ?? false
                if bool(signage, "timeshift-disabled", section: section) == true { config.timeshift.enabled = false }
                for (key, path) in [("picture-frozen-seconds", \ZapperConfig.Signage.pictureFrozenSeconds),
                                    ("picture-black-seconds", \ZapperConfig.Signage.pictureBlackSeconds)] {
                    guard let seconds = int(signage, key, section: section) else { continue }
                    if seconds == 0 || (2...ZapperConfig.Signage.pictureWatchLimit).contains(seconds) {
                        config.signage[keyPath: path] = seconds
                    } else {
                        fail(key, section, "must be 0 (off) or 2 to \(ZapperConfig.Signage.pictureWatchLimit) seconds, not \(seconds)")
                    }
                }
            }
            if let network = subtable(root, "network") {
                check(network, section: "network", known: ConfigSection.network.keys)
                config.network.blockPrivateAddresses = bool(network, "block-private-addresses", section: "network") ?? false
                if let agent = string(network, "user-agent", section: "network") {
                    if agent.isEmpty {
                        fail("user-agent", "network", "is empty")
                    } else if let problem = RequestHeaders.problem(agent) {
                        fail("user-agent", "network", problem)
                    } else {
                        config.network.userAgent = agent
                    }
                }
                if let file = string(network, "ca-file", section: "network") {
                    if file.isEmpty { fail("ca-file", "network", "is empty") } else { config.network.caFile = file }
                }
                if let count = int(network, "connections-per-host", section: "network") {
                    let range = ZapperConfig.Network.connectionsPerHostRange
                    if range.contains(count) { config.network.connectionsPerHost = count } else {
                        fail("connections-per-host", "network", "must be \(range.lowerBound) to \(range.upperBound), not \(count)")
                    }
                }
            }
            readSound(root, into: &config)
            readTimeshift(root, into: &config)
            readSubtitles(root, into: &config)
            readDisplay(root, into: &config)
            readSchedule(root, into: &config)
            readMetrics(root, into: &config)
            readAPI(root, into: &config)
            return config
        }

        mutating func maxAge(_ table: TOMLTable) -> Int? {
            guard let value = table["max-rating"] else { return nil }
            if let age = value.int {
                if (0...21).contains(age) { return age }
                fail("max-rating", "parental", "\(age) is not an age (0 to 21)")
            } else if let rating = value.string {
                if let age = RatingAge.age(of: rating) { return age }
                fail("max-rating", "parental", "\"\(rating)\" is not a rating Zapper knows (try an age such as 12)")
            } else {
                fail("max-rating", "parental", "expected an age or a rating, found \(value.type)")
            }
            return nil
        }
    }
}
