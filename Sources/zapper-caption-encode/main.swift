import Foundation
import ZapperMedia

// zapper-caption-encode JOB.json DIRECTORY: the demo origin's encoder for its
// captions channel. Writes DIRECTORY/<variant>.ts for each variant of the job
// (CaptionedVideoJob): H.264 with CEA-608 captions in its SEI, video only.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: zapper-caption-encode JOB.json DIRECTORY\n".utf8))
    exit(2)
}
do {
    let job = try JSONDecoder().decode(CaptionedVideoJob.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    for variant in job.variants {
        try CaptionedVideoEncoder.encode(job, variant: variant, to: "\(arguments[2])/\(variant.name).ts")
    }
} catch {
    FileHandle.standardError.write(Data("zapper-caption-encode: \(error)\n".utf8))
    exit(1)
}
