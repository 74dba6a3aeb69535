import Foundation
import ZapperMedia

// zapper-caption-encode JOB.json DIRECTORY: the demo origin's encoder for its
// captions channel. Writes DIRECTORY/<variant>.ts for each variant of the job
// (CaptionedVideoJob): H.264 with CEA-608 captions in its SEI, video only.
// zapper-caption-encode --dvbsub JOB.json OUT.ts: a DVB subtitle or teletext stream (DVBSubtitleJob)
// for a broadcast channel, in an MPEG-TS of its own.
let arguments = CommandLine.arguments
do {
    if arguments.count == 4, arguments[1] == "--dvbsub" {
        let job = try JSONDecoder().decode(DVBSubtitleJob.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[2])))
        try DVBSubtitleWriter.write(job, to: arguments[3])
    } else if arguments.count == 3 {
        let job = try JSONDecoder().decode(CaptionedVideoJob.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        for variant in job.variants {
            try CaptionedVideoEncoder.encode(job, variant: variant, to: "\(arguments[2])/\(variant.name).ts")
        }
    } else {
        FileHandle.standardError.write(Data("usage: zapper-caption-encode JOB.json DIRECTORY | --dvbsub JOB.json OUT.ts\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("zapper-caption-encode: \(error)\n".utf8))
    exit(1)
}
