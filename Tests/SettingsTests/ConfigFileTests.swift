import Foundation
import Testing
import ZapperCore
@testable import ZapperSettings

@Suite struct ConfigFileTests {
    /// The example in ConfigFile's doc comment, the one Sources/zapper/README.md shows ("The configuration file").
    static func documentedExample() throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ZapperSettings/ConfigFile.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("/// ```toml") })
        let end = try #require(lines[(start + 1)...].firstIndex { $0.contains("/// ```") })
        return lines[(start + 1)..<end].map { $0.replacingOccurrences(of: "/// ", with: "").replacingOccurrences(of: "///", with: "") }
            .joined(separator: "\n")
    }

    @Test func readsTheDocumentedExample() throws {
        let config = try ConfigFile.parse(try Self.documentedExample(), file: "zapper.toml")
        #expect(config.lineup == "/etc/zapper/channels.m3u")
        #expect(config.guide == "https://guide.example.net/guide.xml.gz")
        #expect(config.keymap == "/etc/zapper/keymap")
        #expect(config.defaultChannel == 1)
        #expect(config.parental.maxAge == 14)  // TV-14
        #expect(config.parental.lockUnknown == false)
        #expect(config.parental.pinHash?.hasPrefix("sha256:50000:") == true)
        #expect(config.parental.pinLength == 4 && config.parental.unlockTimeout == 14400)
        #expect(config.signage == ZapperConfig.Signage())
        #expect(config.metricsListen == ListenAddress(host: "127.0.0.1", port: 9464))
    }

    @Test func metricsAreOffUnlessTheirAddressIsGivenAndABadOneIsNamed() throws {
        #expect(try ConfigFile.parse("", file: "z.toml").metricsListen == nil)
        #expect(try ConfigFile.parse("[metrics]\n", file: "z.toml").metricsListen == nil)
        #expect(try ConfigFile.parse("[metrics]\nlisten = \"[::1]:0\"\n", file: "z.toml").metricsListen == ListenAddress(host: "::1", port: 0))
        #expect(problems("[metrics]\nlisten = \"127.0.0.1:99999\"\n")
            == "/etc/zapper/zapper.toml:2: metrics.listen: \"99999\" is not a port (0 to 65535)")
        #expect(problems("[metrics]\nlisten = \"box.example:9464\"\n").contains("metrics.listen: \"box.example\" is not an IP address"))
        #expect(problems("[metrics]\nlisten = 9464\n").contains("metrics.listen: expected a string, found integer"))
        #expect(problems("[metrics]\nport = 9464\n").contains("metrics.port: unknown key (known: listen)"))
    }

    @Test func anEmptyFileGivesTheDefaults() throws {
        #expect(try ConfigFile.parse("# nothing here\n", file: "empty.toml") == ZapperConfig())
    }

    @Test func readsAgesAndSignage() throws {
        let config = try ConfigFile.parse("""
            [parental]
            max-rating = 12
            lock-unknown = true
            [signage]
            start-muted = true
            no-hint = true
            panel-disabled = true
            [network]
            block-private-addresses = true
            """, file: "lobby.toml")
        #expect(config.parental.maxAge == 12 && config.parental.lockUnknown)
        #expect(config.signage == ZapperConfig.Signage(startMuted: true, noHint: true, panelDisabled: true))
        #expect(config.network.blockPrivateAddresses)
    }

    @Test func thePictureWatchsTimesAreReadAndZeroTurnsACheckOff() throws {
        let defaults = try ConfigFile.parse("", file: "z.toml").signage
        #expect(defaults.pictureWatch == PictureWatch.Settings(frozenAfter: 10_000, blackAfter: 10_000))
        let lobby = try ConfigFile.parse("[signage]\npicture-frozen-seconds = 30\npicture-black-seconds = 0\n", file: "z.toml").signage
        #expect(lobby.pictureWatch == PictureWatch.Settings(frozenAfter: 30_000, blackAfter: 0))
        let off = try ConfigFile.parse("[signage]\npicture-frozen-seconds = 0\npicture-black-seconds = 0\n", file: "z.toml").signage
        #expect(off.pictureWatch == nil)
        #expect(problems("[signage]\npicture-black-seconds = 1\n")
            == "/etc/zapper/zapper.toml:2: signage.picture-black-seconds: must be 0 (off) or 2 to 86400 seconds, not 1")
        // Seconds that would overflow once made milliseconds are refused, not multiplied.
        #expect(problems("[signage]\npicture-frozen-seconds = 9223372036854775807\n")
            == "/etc/zapper/zapper.toml:2: signage.picture-frozen-seconds: must be 0 (off) or 2 to 86400 seconds, not 9223372036854775807")
    }

    @Test func aConnectionLimitPerHostIsReadAndBoundsChecked() throws {
        #expect(try ConfigFile.parse("", file: "z.toml").network.connectionsPerHost == nil)
        #expect(try ConfigFile.parse("[network]\nconnections-per-host = 2\n", file: "z.toml").network.connectionsPerHost == 2)
        #expect(problems("[network]\nconnections-per-host = 0\n")
            == "/etc/zapper/zapper.toml:2: network.connections-per-host: must be 1 to 64, not 0")
    }

    @Test func theUserAgentIsReadAndAHeaderThatCannotBeSentRefused() throws {
        let config = try ConfigFile.parse("[network]\nuser-agent = \"Hotel-Box/7 (lobby)\"\n", file: "z.toml")
        #expect(config.network.userAgent == "Hotel-Box/7 (lobby)")
        #expect(try ConfigFile.parse("", file: "z.toml").network.userAgent == nil)
        #expect(problems("[network]\nuser-agent = \"a\\r\\nX-Evil: 1\"\n").contains("network.user-agent: holds control characters"))
        #expect(problems("[network]\nuser-agent = \"\"\n").contains("network.user-agent: is empty"))
    }

    @Test func theGuideShiftAndTheCAFileAreRead() throws {
        #expect(try ConfigFile.parse("guide-shift = -5.5\n", file: "z.toml").guideShift == -5.5)
        #expect(try ConfigFile.parse("guide-shift = 2\n", file: "z.toml").guideShift == 2)
        #expect(problems("guide-shift = 1e300\n").contains("guide-shift: \"1e+300\" is not a number of hours from -24 to 24"))
        #expect(problems("guide-shift = \"+1\"\n").contains("guide-shift: expected a number of hours, found string"))
        let config = try ConfigFile.parse("[network]\nca-file = \"/etc/zapper/ca.pem\"\n", file: "z.toml")
        #expect(config.network.caFile == "/etc/zapper/ca.pem")
        #expect(problems("[network]\nca-file = \"\"\n").contains("network.ca-file: is empty"))
    }

    @Test func evenLoudnessIsOnAtMinus23UnlessSaidOtherwise() throws {
        #expect(try ConfigFile.parse("", file: "z.toml").loudness == Leveller.Settings(enabled: true, target: -23))
        let config = try ConfigFile.parse("[sound]\neven-loudness = false\nloudness-target = -16.5\n", file: "z.toml")
        #expect(config.loudness == Leveller.Settings(enabled: false, target: -16.5))
        #expect(try ConfigFile.parse("[sound]\nloudness-target = -24\n", file: "z.toml").loudness.target == -24)
        #expect(problems("[sound]\nloudness-target = 0\n") == "/etc/zapper/zapper.toml:2: sound.loudness-target: 0.0 LUFS is not within -40 to -10")
        #expect(problems("[sound]\nloudness-target = \"loud\"\n").contains("sound.loudness-target: expected a number (LUFS), found string"))
        #expect(problems("[sound]\nlevel = 1\n").contains("sound.level: unknown key (known: audio-description, captions-when-muted, delay-ms, even-loudness, languages, loudness-target)"))
    }

    @Test func soundAndSubtitleLanguagesAreReadAndBadOnesNamed() throws {
        let none = try ConfigFile.parse("", file: "z.toml")
        #expect(none.audio == AudioPreferences() && none.subtitleLanguages.isEmpty && none.flipRadio)
        let config = try ConfigFile.parse("""
            flip-radio = false
            [sound]
            languages = ["eng", "DE"]
            audio-description = true
            [subtitles]
            languages = ["fra"]
            """, file: "z.toml")
        #expect(config.audio == AudioPreferences(languages: ["eng", "de"], audioDescription: true))
        #expect(config.subtitleLanguages == ["fra"])
        #expect(!config.flipRadio)
        #expect(problems("[sound]\nlanguages = \"eng\"\n").contains("sound.languages: expected an array of language codes"))
        #expect(problems("[sound]\nlanguages = [\"english\"]\n").contains("sound.languages: \"english\" is not an ISO 639 code"))
        #expect(problems("[subtitles]\nlanguages = [1]\n").contains("subtitles.languages: integer is not an ISO 639 code"))
        #expect(problems("[subtitles]\nlanguage = []\n").contains("subtitles.language: unknown key (known: languages)"))
        #expect(try ConfigFile.parse("[sound]\ndelay-ms = -120\n", file: "z.toml").lipSync == LipSync(milliseconds: -120))
        #expect(problems("[sound]\ndelay-ms = 900\n").contains("sound.delay-ms: 900 ms is not within -500 to 500"))
        let many = (0..<17).map { _ in "\"en\"" }.joined(separator: ", ")
        #expect(problems("[sound]\nlanguages = [\(many)]\n").contains("more than 16 languages"))
    }

    @Test func captionsWhenMutedIsOffUnlessSaid() throws {
        #expect(try ConfigFile.parse("", file: "z.toml").captionsWhenMuted == false)
        #expect(try ConfigFile.parse("[sound]\ncaptions-when-muted = true\n", file: "z.toml").captionsWhenMuted == true)
        #expect(problems("[sound]\ncaptions-when-muted = \"yes\"\n").contains("sound.captions-when-muted"))
    }

    @Test func scheduleEntriesAreReadAndABadOneNamed() throws {
        let text = """
            [[schedule]]
            days = ["weekdays"]
            from = "07:00"
            to = "09:30"
            channel = 3
            volume = 40

            [[schedule]]
            days = "daily"
            from = "23:00"
            to = "06:00"
            standby = true
            """
        let config = try ConfigFile.parse(text, file: "z.toml")
        #expect(config.schedule == [ScheduleEntry(days: Set(2...6), from: 420, to: 570, channel: 3, volume: 40),
                                    ScheduleEntry(days: Set(1...7), from: 1380, to: 360, standby: true)])
        #expect(problems("[[schedule]]\ndays = [\"someday\"]\nfrom = \"07:00\"\nto = \"08:00\"\n").contains("schedule.days: entry 1"))
        #expect(problems("[[schedule]]\nfrom = \"25:00\"\nto = \"08:00\"\n").contains("schedule.from: entry 1 needs from and to as HH:MM"))
        #expect(problems("[[schedule]]\nfrom = \"07:00\"\nto = \"08:00\"\nvolume = 300\n").contains("schedule.volume: entry 1: 300 is not within 0 to 100"))
    }

    func problems(_ text: String) -> String {
        do {
            _ = try ConfigFile.parse(text, file: "/etc/zapper/zapper.toml")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func unknownKeysAndWrongTypesNameTheFileTheLineAndTheKey() {
        let message = problems("""
            lineup = "/x.m3u"
            default-chanel = 3

            [parental]
            max-rating = true
            pin-length = "4"

            [signage]
            start-muted = 1
            """)
        #expect(message == """
            /etc/zapper/zapper.toml:2: default-chanel: unknown key (known: api, default-channel, display, flip-radio, flip-within, guide, guide-shift, hide-dead-channels, keymap, lineup, merge-duplicates, metrics, mqtt, network, parental, schedule, signage, sound, subtitles, timeshift)
            /etc/zapper/zapper.toml:5: parental.max-rating: expected an age or a rating, found bool
            /etc/zapper/zapper.toml:6: parental.pin-length: expected an integer, found string
            /etc/zapper/zapper.toml:9: signage.start-muted: expected a bool, found integer
            """)
    }

    @Test func mergingDuplicatesIsOnUnlessTurnedOff() throws {
        #expect(try ConfigFile.parse("", file: "z.toml").mergeDuplicates)
        #expect(try !ConfigFile.parse("merge-duplicates = false\n", file: "z.toml").mergeDuplicates)
        #expect(problems("merge-duplicates = \"no\"\n") == "/etc/zapper/zapper.toml:1: merge-duplicates: expected a bool, found string")
    }

    @Test func badValuesAreExplained() {
        #expect(problems("[parental]\nmax-rating = \"PG-99\"\n")
            == "/etc/zapper/zapper.toml:2: parental.max-rating: \"PG-99\" is not a rating Zapper knows (try an age such as 12)")
        #expect(problems("[parental]\npin-hash = \"1234\"\n")
            == "/etc/zapper/zapper.toml:2: parental.pin-hash: is not a PIN hash (sha256:<iterations>:<salt hex>:<hash hex>)")
        #expect(problems("default-channel = 0\n") == "/etc/zapper/zapper.toml:1: default-channel: must be a channel number (1 or more)")
        #expect(problems("signage = 3\n") == "/etc/zapper/zapper.toml:1: signage: expected a table [signage], found integer")
        // Seconds that would overflow once made milliseconds (a crash at every boot) are refused.
        #expect(problems("[parental]\nunlock-timeout = 9223372036854775807\n")
            == "/etc/zapper/zapper.toml:2: parental.unlock-timeout: must be 1 to 31536000 seconds (a year), not 9223372036854775807")
        // A PIN hash whose salt is megabytes would make every PIN check hang.
        let longSalt = String(repeating: "ab", count: 65)
        #expect(problems("[parental]\npin-hash = \"sha256:1000:\(longSalt):\(String(repeating: "00", count: 32))\"\n")
            == "/etc/zapper/zapper.toml:2: parental.pin-hash: is not a PIN hash (sha256:<iterations>:<salt hex>:<hash hex>)")
    }

    @Test func syntaxErrorsGiveTheLine() {
        let message = problems("lineup = \"/x.m3u\"\nguide = \n")
        #expect(message.hasPrefix("/etc/zapper/zapper.toml:2: "), "\(message)")
    }

    @Test func aMissingFileIsFineOnlyAtTheDefaultPath() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-no-such-\(UUID()).toml").path
        #expect(throws: ConfigFileError(file: missing, problems: [.init(line: nil, key: nil, message: "no such file")])) {
            try ConfigFile.load(path: missing)
        }
        if !FileManager.default.fileExists(atPath: ConfigFile.defaultPath) {
            #expect(try ConfigFile.load(path: nil) == ZapperConfig())
        }
    }

    @Test func loadsAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-\(UUID()).toml")
        try Data("keymap = \"/k\"\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ConfigFile.load(path: url.path).keymap == "/k")
    }
}

@Suite struct PINHashTests {
    @Test func verifiesTheRightPINOnly() {
        let stored = PINHash.hash(pin: "4711", iterations: 1000)
        #expect(stored.hasPrefix("sha256:1000:"))
        #expect(PINHash.isWellFormed(stored))
        #expect(PINHash.verify(pin: "4711", against: stored))
        #expect(!PINHash.verify(pin: "4712", against: stored))
        #expect(!PINHash.verify(pin: "47110", against: stored))
        #expect(!PINHash.verify(pin: "", against: stored))
    }

    @Test func theDefaultCostIsModest() {
        let clock = ContinuousClock()
        var stored = ""
        let elapsed = clock.measure {
            stored = PINHash.hash(pin: "2468")
            #expect(PINHash.verify(pin: "2468", against: stored))
        }
        print("hash + verify with \(PINHash.defaultIterations) iterations took \(elapsed)")
        #expect(stored.hasPrefix("sha256:\(PINHash.defaultIterations):"))
        #expect(elapsed < .seconds(5))
    }

    @Test func saltsDiffer() {
        #expect(PINHash.hash(pin: "0000", iterations: 10) != PINHash.hash(pin: "0000", iterations: 10))
    }

    @Test func isDeterministicForAGivenSaltAndMatchesSHA256() {
        // One iteration is SHA-256(salt ‖ pin): salt "ab" + "1234" = SHA-256("\u{AB}1234"), checked with sha256sum.
        let one = PINHash.hash(pin: "1234", salt: [0xAB], iterations: 1)
        #expect(one == "sha256:1:ab:" + Self.expectedOneIteration)
        #expect(PINHash.hash(pin: "1234", salt: [1, 2], iterations: 7) == PINHash.hash(pin: "1234", salt: [1, 2], iterations: 7))
        #expect(PINHash.hash(pin: "1234", salt: [1, 2], iterations: 7) != PINHash.hash(pin: "1234", salt: [1, 2], iterations: 8))
    }

    static let expectedOneIteration = "11da4cef9045641ded96e1e4a6fa29022a358b05d784f857dd0b482d1af64655"

    @Test func malformedHashesVerifyNothing() {
        let good = PINHash.hash(pin: "1", iterations: 2)
        let parts = good.split(separator: ":").map(String.init)
        for bad in ["", "1234", "md5:2:\(parts[2]):\(parts[3])", "sha256:0:\(parts[2]):\(parts[3])",
                    "sha256:99999999:\(parts[2]):\(parts[3])", "sha256:2::\(parts[3])", "sha256:2:\(parts[2]):abc",
                    "sha256:2:zz:\(parts[3])", "sha256:2:\(parts[2]):\(parts[3]):extra"] {
            #expect(!PINHash.isWellFormed(bad), "\(bad)")
            #expect(!PINHash.verify(pin: "1", against: bad))
        }
    }

    /// Table names toml++ asserts on instead of failing (found by `make fuzz`) are parse errors.
    @Test func tableNamesThatWouldTripTheTOMLParserAreErrors() {
        let problems = ConfigFileTests().problems
        for (text, line) in [("[;ignage]\nstart-muted = true\n", 1), ("lineup = \"x\"\n[&", 2), ("[[[a]]]\n", 1), ("[[=", 1), ("[ ]", 1), ("\u{FEFF}[\u{A1}Z", 1), ("[\u{059E}x]", 1), ("[[\u{0301}a]]", 1),
                             ("a = 1 # \"\"\" in a comment opens no string\n[[\n", 2)] {
            #expect(problems(text) == "/etc/zapper/zapper.toml:\(line): a table name must start with a letter, a digit, _, - or a quote", "\(text)")
        }
        // Inside a multi-line string such a line is text (and here an unknown key's value).
        #expect(problems("notes = \"\"\"\n[;x]\n\"\"\"\n").contains("notes: unknown key"))
    }

    /// A `}` where an array's value should be trips toml++ too (found by `make fuzz`): a parse error at its line.
    @Test func aBraceInsideAnArrayIsAnError() {
        let problems = ConfigFileTests().problems
        for (text, line) in [("a = [}\n", 1), ("lineup = \"x\"\nb = [[}", 2), ("c = [1,}", 1), ("d = [\n  1,\n  # }\n  }\n]", 4),
                             ("lineup =[[}[[[[['''''3':f'", 1)] {
            #expect(problems(text) == "/etc/zapper/zapper.toml:\(line): a } where an array's value or its ] was expected", "\(text)")
        }
        // A date, a space and a lone digit: toml++ reads past the value (found by `make fuzz` too).
        for (text, line) in [("li=0pin-nh-2= 8#", 1), ("a = 1\nb = [2024-01-01 7]\n", 2), ("c = 2024-01-01 7", 1)] {
            #expect(problems(text) == "/etc/zapper/zapper.toml:\(line): not a TOML value: a date and a space need a time (HH:MM) after them", "\(text)")
        }
        #expect(!problems("d = 2024-01-01 07:30:00\n").contains("need a time"))
        // In strings, comments and inline tables a } is no such thing.
        for text in ["notes = [\"}\", '}', \"\"\"\n}\"\"\"]\n", "e = [{ f = 1 }] # [}\n", "g = { h = [1] }\n"] {
            #expect(!problems(text).contains("array's value"), "\(text): \(problems(text))")
        }
    }

    /// A control character (but tab, LF, CR) anywhere is a parse error at its line, never handed to
    /// toml++: `make fuzz` found a date, a space, a digit and then U+000B tripping its assertion.
    @Test func controlCharactersAreAnErrorAtTheirLine() {
        let problems = ConfigFileTests().problems
        let found = "li=0pin-nh-2= 8" + String(repeating: "\u{0B}", count: 110) + "i=0\0\0\0\0\0\0\0i=0pin-nh-2= 8\0\0 7\0"
        for (text, line, code) in [(found, 1, "000B"), ("a = 1\nb = \"x\0y\"\n", 2, "0000"), ("# fine\n\n# bell \u{07}\n", 3, "0007"),
                                   ("c = 1\u{7F}", 1, "007F")] {
            #expect(problems(text) == "/etc/zapper/zapper.toml:\(line): control character U+\(code) is not allowed in TOML", "\(text)")
        }
        #expect(problems("lineup = \"x\"\t# a tab\r\n") == "no error", "tab and CRLF are TOML's own")
    }

    /// A space or line break beyond ASCII outside strings and comments is an error at its line,
    /// never handed to toml++: `make fuzz` found U+FEFF after a date-like value tripping its
    /// assertion, and every such space does the same. In strings and comments they are TOML's own.
    @Test func aUnicodeSpaceOutsideStringsIsAnErrorAtItsLine() {
        let problems = ConfigFileTests().problems
        for (text, line, code) in [("li=0pin-nh-2= 8\u{FEFF}'[&", 1, "FEFF"), ("a = 1\nb = 8\u{00A0}\n", 2, "00A0"),
                                   ("c = 2024-01-01\u{3000}'x'", 1, "3000"), ("d = 1\u{2028}", 1, "2028")] {
            #expect(problems(text) == "/etc/zapper/zapper.toml:\(line): U+\(code) (a Unicode space) is allowed in TOML only inside strings and comments",
                    "\(text)")
        }
        for text in ["\u{FEFF}lineup = \"x\"\n", "lineup = \"BBC\u{00A0}One\u{FEFF}\"\n", "# a\u{3000}comment\nlineup = 'x\u{2028}'\n"] {
            #expect(problems(text) == "no error", "\(text)")
        }
    }
}
