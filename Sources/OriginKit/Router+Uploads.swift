import Foundation
import Synchronization

/// `PUT /control/uploads/NAME` keeps the body (a screenshot a player was told to upload);
/// `GET /control/uploads/NAME` gives it back. At most 8 uploads of 32 MB are kept (the oldest go).
final class UploadBox: Sendable {
    static let maxUploads = 8
    static let maxBytes = 32 << 20
    private let kept = Mutex<[(name: String, body: Data)]>([])

    func put(_ name: String, _ body: Data) {
        kept.withLock { kept in
            kept.removeAll { $0.name == name }
            kept.append((name, body))
            if kept.count > Self.maxUploads { kept.removeFirst(kept.count - Self.maxUploads) }
        }
    }

    func get(_ name: String) -> Data? { kept.withLock { $0.last { $0.name == name }?.body } }
}

extension OriginRouter {
    func uploads(_ request: OriginRequest, _ parts: [String]) -> OriginReply {
        guard parts.count == 1, let name = parts.first else { return .text(404, "uploads: /control/uploads/NAME") }
        switch request.method {
        case "PUT":
            guard request.body.count <= UploadBox.maxBytes else { return .text(413, "uploads: over \(UploadBox.maxBytes) bytes") }
            uploadBox.put(name, request.body)
            return .text(201, "\(name): \(request.body.count) bytes")
        case "GET", "HEAD":
            guard let body = uploadBox.get(name) else { return .text(404, "uploads: no \(name)") }
            return OriginReply(status: 200, contentType: "application/octet-stream", body: body)
        default:
            return .text(405, "PUT or GET /control/uploads/NAME")
        }
    }
}
