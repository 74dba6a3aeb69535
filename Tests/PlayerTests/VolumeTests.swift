import Foundation
import Testing
import ZapperCore

/// The sound level on screen: a volume or mute key shows it at the top centre for a few
/// seconds, over the picture, and then it goes.
extension ZapperPlaybackTests {
    @Test func aVolumeKeyShowsTheLevelForAFewSeconds() async throws {
        let run = try await runZapper(lineup: try demoLineup(), arguments: ["--channel", "3", "--size", "1280x720"], script: """
            wait-event first-frame 20000
            wait 500
            snapshot $DIR/before.png
            press KEY_VOLUMEDOWN
            wait 400
            snapshot $DIR/down.png
            press KEY_MUTE
            wait 400
            snapshot $DIR/muted.png
            wait 3800
            snapshot $DIR/after.png
            quit
            """)
        #expect(run.status == 0, "\(run.stderr.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        let levels = run.named(.volume).map { "\($0["level"] as? Int ?? -1)\($0["muted"] as? Bool == true ? " muted" : "")" }
        #expect(levels == ["75", "75 muted"])
        let shots = Dictionary(uniqueKeysWithValues: run.named(.snapshot).compactMap { $0["path"] as? String }.map {
            (URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent, $0)
        })
        // The middle of the pill, where no picture shows through.
        let pill = OverlayLayout(width: 1280, height: 720).volume().panel.insetBy(dx: 40, dy: 12)
        for (name, shown) in [("before", false), ("down", true), ("muted", true), ("after", false)] {
            let path = try #require(shots[name], "no \(name) snapshot")
            #expect(isDark(try medianColour(path, crop: pill)) == shown, "\(name): the level \(shown ? "is not" : "is") on screen")
        }
    }
}
