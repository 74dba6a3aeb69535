import ArgumentParser

/// zapper-bench: benchmarks that report (they assert nothing; tests do that).
/// Each subcommand starts its own zapper-origin and measures real processes.
@main
struct ZapperBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper-bench",
        abstract: "Measure zapper beside mpv and ffmpeg on the demo origin, and print a table.",
        subcommands: [PlaybackBench.self, DeinterlaceBench.self, ZapBench.self, DisplayBench.self, KeyBench.self, SoakBench.self, LineupBench.self, InputsBench.self])
}
