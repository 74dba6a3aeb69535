import TOMLKit
import ZapperCore

extension ConfigFile.Reader {
    /// `[sound]`: even loudness on or off, and its target; captions while muted.
    mutating func readSound(_ root: TOMLTable, into config: inout ZapperConfig) {
        guard let sound = subtable(root, "sound") else { return }
        let section = "sound"
        check(sound, section: section, known: ["even-loudness", "loudness-target", "captions-when-muted"])
        config.loudness.enabled = bool(sound, "even-loudness", section: section) ?? true
        config.captionsWhenMuted = bool(sound, "captions-when-muted", section: section) ?? false
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
