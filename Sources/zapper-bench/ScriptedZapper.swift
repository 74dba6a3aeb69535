import Foundation

/// A zapper process a bench drives with a script: on the offscreen display,
/// sound into ALSA's `null` PCM, its lineup, script, event log and state
/// directory in the run's folder (named after `name`: never the box's own
/// state); created, not started.
func scriptedZapper(name: String, tools: Tools, directory: URL, lineup: String, script: String,
                    arguments: [String], environment: [String: String] = [:]) throws -> (ChildProcess, events: URL) {
    let lineupURL = directory.appendingPathComponent("\(name)-lineup.m3u")
    let alsaURL = directory.appendingPathComponent("\(name)-alsa.conf")
    let scriptURL = directory.appendingPathComponent("\(name)-script.txt")
    let eventsURL = directory.appendingPathComponent("\(name)-events.jsonl")
    try lineup.write(to: lineupURL, atomically: true, encoding: .utf8)
    try "pcm.!default { type null }\n".write(to: alsaURL, atomically: true, encoding: .utf8)
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    let child = try ChildProcess(
        name: name, executable: try tools.product("zapper"),
        arguments: ["--lineup", lineupURL.path, "--display", "offscreen",
                    "--events", eventsURL.path, "--script", scriptURL.path,
                    "--state-dir", directory.appendingPathComponent("\(name)-state").path] + arguments,
        directory: directory, environment: ["ALSA_CONFIG_PATH": alsaURL.path].merging(environment) { $1 })
    return (child, eventsURL)
}
