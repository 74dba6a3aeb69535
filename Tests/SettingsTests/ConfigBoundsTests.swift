import Foundation
import Testing
import ZapperCore
@testable import ZapperSettings

/// What a configuration may hold at most, and the names the API answers to: a schedule over its
/// bound plays with the first entries, a file too large is not read, hostnames are DNS names.
@Suite struct ConfigBoundsTests {
    @Test func theAPIsHostnamesAreDNSNames() throws {
        let api = "[metrics]\nlisten = \"0.0.0.0:9464\"\n[api]\ntoken = \"0123456789abcdef\"\n"
        #expect(try ConfigFile.parse(api + "hostnames = [\"tv-412.hotel.lan\"]\n", file: "z.toml").apiHostnames == ["tv-412.hotel.lan"])
        #expect(try ConfigFile.parse(api, file: "z.toml").apiHostnames == [])
        #expect(ConfigFileTests().problems(api + "hostnames = [\"under_score.lan\"]\n").contains("api.hostnames: expected at most 32 DNS names"))
        #expect(ConfigFileTests().problems(api + "hostnames = \"tv.lan\"\n").contains("api.hostnames: expected at most 32 DNS names"))
    }

    /// A file of 10,000 entries (a signage script that grew) plays with the first 64, and says so.
    @Test func aScheduleOverItsBoundKeepsTheFirst64() throws {
        let entry = "[[schedule]]\nfrom = \"07:00\"\nto = \"08:00\"\nvolume = 30\n\n"
        let config = try ConfigFile.parse(String(repeating: entry, count: 10_000), file: "/etc/zapper/zapper.toml")
        #expect(config.schedule.count == 64)
        #expect(config.notes == ["/etc/zapper/zapper.toml:1: schedule: 10000 entries, more than 64; the first 64 are kept, the rest are left out"])
    }

    @Test func aFileOverAMegabyteIsNotRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-big-\(UUID()).toml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x23, count: ConfigFile.maxBytes + 1).write(to: file)
        #expect(throws: ConfigFileError.self) { try ConfigFile.load(path: file.path) }
        do { _ = try ConfigFile.load(path: file.path) } catch { #expect(error.description == "\(file.path): is 1048577 bytes, more than the 1048576 a configuration may be") }
    }

    /// `[timeshift]` within its bounds, and `[signage] timeshift-disabled` switching it off.
    @Test func timeshiftIsBoundedAndSignageSwitchesItOff() throws {
        let config = try ConfigFile.parse("[timeshift]\nminutes = 90\nmemory-mb = 64\n", file: "z.toml")
        #expect(config.timeshift.minutes == 90 && config.timeshift.memoryMegabytes == 64)
        #expect(config.timeshift.budget == TimeshiftBudget(seconds: 5_400, bytes: 64 << 20))
        #expect(try ConfigFile.parse("", file: "z.toml").timeshift.budget == TimeshiftBudget(seconds: 1_800, bytes: 192 << 20))
        #expect(try ConfigFile.parse("[signage]\ntimeshift-disabled = true\n", file: "z.toml").timeshift.budget == nil)
        #expect(ConfigFileTests().problems("[timeshift]\nminutes = 100000\n").contains("timeshift.minutes: must be 1 to 240 minutes, not 100000"))
        #expect(ConfigFileTests().problems("[timeshift]\nmemory-mb = 0\n").contains("timeshift.memory-mb: must be 16 to 1024 MB, not 0"))
    }
}
