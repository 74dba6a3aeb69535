import Testing
import ZapperCore
import ZapperUI

/// The overlay's pictures at 720p and 1080p against reviewed goldens.
@Suite struct OverlayGoldenTests {
    func picture(_ layers: [OverlayLayer], width: Int, height: Int) -> ARGBImage {
        let renderer = OverlayRenderer(width: width, height: height)
        renderer.render(layers)
        return renderer.image()
    }

    @Test(arguments: Fixtures.sizes.map { [$0.0, $0.1] })
    func interstitialCard(size: [Int]) throws {
        let image = picture([.interstitial(Fixtures.card, appearance: 1)], width: size[0], height: size[1])
        try Goldens.check(image, named: "card-\(size[0])x\(size[1])")
    }

    @Test(arguments: Fixtures.sizes.map { [$0.0, $0.1] })
    func errorCard(size: [Int]) throws {
        let image = picture([.interstitial(Fixtures.errorCard, appearance: 1)], width: size[0], height: size[1])
        try Goldens.check(image, named: "error-\(size[0])x\(size[1])")
    }

    @Test(arguments: Fixtures.sizes.map { [$0.0, $0.1] })
    func bannerWithLogoBugAndDigits(size: [Int]) throws {
        let image = picture(Fixtures.bannerLayers, width: size[0], height: size[1])
        try Goldens.check(image, named: "banner-\(size[0])x\(size[1])")
    }
}
