import Foundation
import TestSupport

/// A real headless Chromium driven through Debian's `chromedriver` (the W3C WebDriver
/// protocol, JSON over HTTP on loopback): enough to open a page, find elements by CSS,
/// click them and run a line of script. One browser session; `stop` ends both processes.
final class ChromeDriver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let folder: URL
    private let port: Int
    private var session = ""
    /// The key WebDriver gives an element reference under.
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-chrome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try MosquittoBroker.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while await (try? RawHTTPConnection.fetch(port: port, "GET", "/status"))?.status != 200 {
            guard Date() < deadline else { throw Failure(description: "chromedriver did not answer on port \(port)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        let options: [String: Any] = ["binary": "/usr/bin/chromium",
                                      "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                               "--user-data-dir=\(folder.appendingPathComponent("profile").path)"]]
        let created = try call("POST", "/session", ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]])
        guard let value = created["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw Failure(description: "no session: \(created)")
        }
        session = id
    }

    /// A WebDriver command; its JSON answer (an error answer throws).
    @discardableResult
    private func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? ""
        let reply = try RawHTTPConnection.fetch(port: port, method, path, body: text, headers: ["Content-Type": "application/json"])
        let json = (try? JSONSerialization.jsonObject(with: Data(reply.text.utf8))) as? [String: Any] ?? [:]
        guard reply.status == 200 else { throw Failure(description: "\(method) \(path): \(reply.status) \(reply.text.prefix(500))") }
        return json
    }

    func open(_ url: String) throws {
        try call("POST", "/session/\(session)/url", ["url": url])
    }

    /// The elements matching `css` now.
    func elements(_ css: String) throws -> [String] {
        let found = try call("POST", "/session/\(session)/elements", ["using": "css selector", "value": css])
        return (found["value"] as? [[String: Any]] ?? []).compactMap { $0[Self.elementKey] as? String }
    }

    /// Waits (up to `seconds`) until `css` matches at least `count` elements; them.
    func waitFor(_ css: String, count: Int = 1, seconds: Double = 20) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let found = try elements(css)
            if found.count >= count { return found }
            guard Date() < deadline else { throw Failure(description: "\(css): \(found.count) of \(count) elements after \(seconds) s") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func click(_ element: String) throws {
        try call("POST", "/session/\(session)/element/\(element)/click", [:])
    }

    /// Runs `script` (a function body) in the page; what it returns.
    func run(_ script: String) throws -> Any? {
        try call("POST", "/session/\(session)/execute/sync", ["script": script, "args": []])["value"]
    }

    func stop() {
        // The session's end closes the browser; then the driver goes.
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)") }
        Tool.killNow(process)
        try? FileManager.default.removeItem(at: folder)
    }
}
