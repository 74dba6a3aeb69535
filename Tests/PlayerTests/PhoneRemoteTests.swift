import Foundation
import Testing
import TestSupport
import ZapperCore

/// The phone's remote-control page in a real headless browser (Debian's Chromium through
/// chromedriver), against the real zapper playing the demo origin: the token comes in the
/// link's fragment, the channel list fills, a channel tapped is tuned, CH+ flips, and the
/// live screenshot shows.
extension ZapperPlaybackTests {
    @Test(.timeLimit(.minutes(3)))
    func thePhonePageListsTunesFlipsAndShowsTheScreen() async throws {
        let token = "phone-remote-token-93be41"
        let (zapper, port) = try await zapperServingTheAPI(token: token)
        let page = try await RawHTTPConnection.fetch(port: port, "GET", "/remote")
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(try await RawHTTPConnection.fetch(port: port, "GET", "/channels").status == 401, "the list needs the token")

        let browser = try await ChromeDriver()
        defer { browser.stop() }
        try browser.open("http://127.0.0.1:\(port)/remote#token=\(token)")
        let count = try Repo.catalog().channels.count
        let rows = try await browser.waitFor("#channels li", count: count)
        #expect(rows.count == count)
        // The token left the address once kept (a screenshot of the phone would not show it).
        #expect(try browser.run("return location.hash") as? String == "")
        try browser.click(try #require(try browser.elements("#channels li[data-number=\"3\"]").first))
        #expect(await zapper.waitFor(.firstFrame, skipping: 1, seconds: 40), "channel 3 was not tuned: \(zapper.stderrSoFar)")
        try browser.click(try #require(try browser.elements("button[data-key=\"KEY_CHANNELUP\"]").first))
        #expect(await zapper.waitFor(.firstFrame, skipping: 2, seconds: 40), "CH+ did not flip: \(zapper.stderrSoFar)")
        // The live screenshot arrives (a PNG the page turned into an image) and the status names channel 4.
        let deadline = Date().addingTimeInterval(20)
        var shown = 0, status = ""
        while Date() < deadline {
            shown = try browser.run("return document.getElementById('screen').naturalWidth") as? Int ?? 0
            status = try browser.run("return document.getElementById('status').textContent") as? String ?? ""
            if shown == 320, status.hasPrefix("4 ") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        await zapper.kill()
        #expect(shown == 320, "the screenshot never showed")
        #expect(status.hasPrefix("4 "), "status: \(status)")
        let channels = zapper.events.filter { $0.event.name == .firstFrame }.compactMap(\.channel)
        #expect(channels == [1, 3, 4], "\(channels)")
    }
}
