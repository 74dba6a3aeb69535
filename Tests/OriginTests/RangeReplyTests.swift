import Foundation
import Testing
@testable import OriginKit

/// A segment answers the one byte range a Range header asks for, as a real HTTP server does.
@Suite struct RangeReplyTests {
    static let segment = OriginReply(status: 200, contentType: "video/mp2t", body: Data((0..<100).map { UInt8($0) }))

    @Test func oneRangeIsCutOutWithItsContentRange() {
        let cut = Self.segment.answering(range: "bytes=10-19")
        #expect(cut.status == 206)
        #expect(cut.body == Data((10..<20).map { UInt8($0) }))
        #expect(cut.contentRange == "bytes 10-19/100")
        let open = Self.segment.answering(range: "bytes=90-")
        #expect(open.status == 206 && open.body.count == 10 && open.contentRange == "bytes 90-99/100")
        // An end past the body is clipped to it.
        #expect(Self.segment.answering(range: "bytes=95-1000").contentRange == "bytes 95-99/100")
    }

    @Test func aStartPastTheBodyIsNotSatisfiable() {
        let refused = Self.segment.answering(range: "bytes=100-")
        #expect(refused.status == 416)
        #expect(refused.contentRange == "bytes */100")
    }

    @Test(arguments: [nil, "bytes=0-1,5-9", "items=0-9", "bytes=-5", "bytes=9-3", "bytes=x-", "bytes=99999999999999999999-"])
    func anythingElseIsAnsweredWhole(_ header: String?) {
        let reply = Self.segment.answering(range: header)
        #expect(reply.status == 200 && reply.body.count == 100 && reply.contentRange == nil)
    }

    @Test func onlyAWholeReplyIsCut() {
        var missing = OriginReply.text(404, "not found")
        missing = missing.answering(range: "bytes=0-3")
        #expect(missing.status == 404)
    }
}
