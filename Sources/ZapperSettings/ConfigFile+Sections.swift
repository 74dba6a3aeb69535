import TOMLKit
import ZapperCore

extension ConfigFile.Reader {
    /// `[sound]`: even loudness on or off, and its target; captions while muted; the languages
    /// and audio description chosen where nobody chose a track.
    mutating func readSound(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let sound = subtable(root, "sound") else { return }
        let section = "sound"
        check(sound, section: section, known: ConfigSection.sound.keys)
        config.loudness.enabled = bool(sound, "even-loudness", section: section) ?? true
        config.captionsWhenMuted = bool(sound, "captions-when-muted", section: section) ?? false
        config.audio.languages = languages(sound, section: section)
        config.audio.audioDescription = bool(sound, "audio-description", section: section) ?? false
        if let delay = int(sound, "delay-ms", section: section) {
            if LipSync.range.contains(delay) { config.lipSync = LipSync(milliseconds: delay) } else {
                fail("delay-ms", section, "\(delay) ms is not within \(LipSync.range.lowerBound) to \(LipSync.range.upperBound)")
            }
        }
        guard let value = sound["loudness-target"] else { return }
        guard let target = value.double ?? value.int.map(Double.init) else {
            fail("loudness-target", section, "expected a number (LUFS), found \(value.type)")
            return
        }
        guard Leveller.Settings.targets.contains(target) else {
            fail("loudness-target", section, "\(target) LUFS is not within -40 to -10")
            return
        }
        config.loudness.target = target
    }
}

extension ConfigFile.Reader {
    /// `[timeshift]`: how far behind live (`minutes`) and how much memory (`memory-mb`) a paused channel may keep.
    mutating func readTimeshift(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let timeshift = subtable(root, "timeshift") else { return }
        let section = "timeshift"
        check(timeshift, section: section, known: ConfigSection.timeshift.keys)
        for (key, path, range, unit) in [("minutes", \TimeshiftSettings.minutes, TimeshiftSettings.minutesRange, "minutes"),
                                         ("memory-mb", \TimeshiftSettings.memoryMegabytes, TimeshiftSettings.memoryRange, "MB")] {
            guard let value = int(timeshift, key, section: section) else { continue }
            if range.contains(value) { config.timeshift[keyPath: path] = value } else {
                fail(key, section, "must be \(range.lowerBound) to \(range.upperBound) \(unit), not \(value)")
            }
        }
    }
}

extension ConfigFile.Reader {
    /// `[metrics]`: where Prometheus metrics are served (`listen`); absent: none.
    mutating func readMetrics(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let metrics = subtable(root, "metrics") else { return }
        check(metrics, section: "metrics", known: ConfigSection.metrics.keys)
        guard let listen = string(metrics, "listen", section: "metrics") else { return }
        switch ListenAddress.parse(listen) {
        case .success(let address): config.metricsListen = address
        case .failure(let rejection): fail("listen", "metrics", "\(rejection)")
        }
    }
}

extension ConfigFile.Reader {
    /// `[api]`: the HTTP API's bearer token (16 or more printable ASCII characters), on the
    /// metrics' listener (so `[metrics] listen` must be given too).
    mutating func readAPI(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let api = subtable(root, "api") else { return }
        check(api, section: "api", known: ConfigSection.api.keys)
        if let value = api["hostnames"] {
            let names = value.array?.compactMap(\.string) ?? []
            if value.array == nil || names.count != value.array?.count || names.count > HostRule.mostNames || !names.allSatisfy(HostRule.isValidName) {
                fail("hostnames", "api", "expected at most \(HostRule.mostNames) DNS names such as [\"tv-412.hotel.lan\"], found \(value)")
            } else {
                config.apiHostnames = names
            }
        }
        guard let token = string(api, "token", section: "api") else { return }
        guard token.utf8.count >= APIGate.minimumTokenLength, token.utf8.count <= 256,
              token.unicodeScalars.allSatisfy({ (0x21...0x7e).contains($0.value) }) else {
            fail("token", "api", "must be \(APIGate.minimumTokenLength) to 256 printable ASCII characters without spaces")
            return
        }
        guard config.metricsListen != nil else {
            fail("token", "api", "the API is served on the metrics' address: give [metrics] listen too")
            return
        }
        config.apiToken = token
    }
}

extension ConfigFile.Reader {
    /// `[subtitles]`: the languages whose subtitles show where nobody chose any for a channel.
    mutating func readSubtitles(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let subtitles = subtable(root, "subtitles") else { return }
        check(subtitles, section: "subtitles", known: ConfigSection.subtitles.keys)
        config.subtitleLanguages = languages(subtitles, section: "subtitles")
    }

    /// A `languages` list: ISO 639-1 or -2 codes (two or three letters), at most 16, in order.
    mutating func languages(_ table: TOMLTable, section: String) -> [String] {
        guard let value = table["languages"] else { return [] }
        guard let array = value.array else {
            fail("languages", section, "expected an array of language codes such as [\"eng\", \"deu\"], found \(value.type)")
            return []
        }
        var codes: [String] = []
        for item in array {
            guard let code = item.string, (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                fail("languages", section, "\(item.string.map { "\"\($0)\"" } ?? "\(item.type)") is not an ISO 639 code (two or three letters, as \"en\" or \"eng\")")
                return []
            }
            codes.append(code.lowercased())
        }
        guard codes.count <= 16 else {
            fail("languages", section, "more than 16 languages")
            return []
        }
        return codes
    }
}

extension ConfigFile.Reader {
    /// `[display]`: the display's refresh following the content.
    mutating func readDisplay(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let display = subtable(root, "display") else { return }
        check(display, section: "display", known: ConfigSection.display.keys)
        config.matchFrameRate = bool(display, "match-frame-rate", section: "display") ?? false
    }
}
