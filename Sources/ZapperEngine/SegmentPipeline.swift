import Foundation
import ZapperHLS

/// A live session's segments flowing to a decode thread of their own: the
/// channel's picture (`ChannelPlayback`) and a separate audio rendition
/// (`AudioRenditionFeed`) each run one.
protocol SegmentPipeline: AnyObject, Sendable {
    /// Takes a segment as the session hands it on (its bytes still arriving).
    func receive(_ delivery: HLSSegmentDelivery)
    /// The decode thread's body; returns once the pipeline stops.
    func decodeLoop()
}

extension SegmentPipeline {
    /// Starts `session`, its segments to `receive`, and `decodeLoop` on a thread named `threadName`.
    func startPipeline(_ session: some SegmentSource, threadName: String) {
        session.start()
        Task { [weak self, session] in
            for await delivery in session.segments {
                guard let self else { return }
                self.receive(delivery)
            }
        }
        let thread = Thread { [weak self] in self?.decodeLoop() }
        thread.name = threadName
        thread.start()
    }
}
