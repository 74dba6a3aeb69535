import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperUI

/// The panel's Phone tab: its goldens, and its code read back by a real QR reader (zbarimg,
/// Debian's zbar-tools, which `make test` installs) as the very link the page was given.
@Suite struct PhonePageTests {
    static let sizes = Fixtures.sizes.map { [$0.0, $0.1] }

    func picture(_ content: PanelContent, size: [Int]) -> ARGBImage {
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        renderer.render([.panel(content, appearance: 1)])
        return renderer.image()
    }

    /// What zbarimg reads in the picture (its exit status 4: no code found).
    func scanned(_ image: ARGBImage) throws -> (status: Int32, text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-phone-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try PNGWriter.write(image, to: file.path)
        return try QRReader.scan(file)
    }

    @Test(arguments: sizes)
    func phonePage(size: [Int]) throws {
        try Goldens.check(picture(PanelFixtures.phone, size: size), named: "panel-phone-\(size[0])x\(size[1])")
    }

    @Test(arguments: sizes)
    func theCodeReadsBackAsTheLink(size: [Int]) throws {
        let read = try scanned(picture(PanelFixtures.phone, size: size))
        #expect(read.status == 0 && read.text == PanelFixtures.phoneLink, "zbarimg: \(read.status) \(read.text)")
    }

    @Test func withoutALinkThereIsNoCodeButTheReason() throws {
        let image = picture(PanelFixtures.phoneLoopback, size: [1280, 720])
        try Goldens.check(image, named: "panel-phone-loopback-1280x720")
        #expect(try scanned(image).status == 4)
    }
}
