import ArgumentParser
import Foundation

/// What every bench that starts zapper-origin needs: the channel table and
/// the folder of the built products (`@OptionGroup`).
struct BenchInputs: ParsableArguments {
    @Option(help: "The channel table for zapper-origin.")
    var channels = "channels/channels.json"

    @Option(help: "Folder of the built zapper and zapper-origin (default: zapper-bench's own).")
    var products: String?

    var tools: Tools { Tools(products: products.map { URL(fileURLWithPath: $0) } ?? Tools.ownFolder()) }

    /// The channel table as an absolute path (zapper-origin runs in another folder).
    var channelsPath: String { URL(fileURLWithPath: channels).standardizedFileURL.path }

    /// A new scratch folder for the run (the caller removes it).
    func scratchFolder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
