import Testing
import ZapperCore

@Suite struct PicturePlacementTests {
    @Test func fitLetterboxesAndPillarboxes() {
        let wide = PicturePlacement(mode: .fit, source: (1920, 800), target: (1920, 1080))
        #expect(wide.crop == (0, 0, 1920, 800))
        #expect(wide.box == (0, 140, 1920, 800))
        let narrow = PicturePlacement(mode: .fit, source: (640, 480), target: (1920, 1080))
        #expect(narrow.box == (240, 0, 1440, 1080))
    }

    @Test func fillCropsToTheScreenShape() {
        // 4:3 on 16:9: the full width, the middle 3/4 of the height.
        let placement = PicturePlacement(mode: .fill, source: (640, 480), target: (1920, 1080))
        #expect(placement.box == (0, 0, 1920, 1080))
        #expect(placement.crop == (0, 60, 640, 360))
        // The same shape: nothing cropped.
        #expect(PicturePlacement(mode: .fill, source: (1280, 720), target: (1920, 1080)).crop == (0, 0, 1280, 720))
    }

    @Test func zoomMagnifiesFurtherThanFill() {
        let placement = PicturePlacement(mode: .zoom, source: (1920, 1080), target: (1920, 1080))
        #expect(placement.box == (0, 0, 1920, 1080))
        #expect(placement.crop == (240, 134, 1440, 810))
    }

    @Test func everyCropStaysInsideTheSource() {
        for mode in PictureMode.allCases {
            for source in [(1, 1), (2, 2), (426, 240), (720, 576), (1920, 1080), (3840, 1600)] {
                for target in [(1280, 720), (1920, 1080), (1280, 800), (720, 576)] {
                    let placement = PicturePlacement(mode: mode, source: source, target: target)
                    let crop = placement.crop
                    #expect(crop.x >= 0 && crop.y >= 0 && crop.x + crop.width <= max(source.0, 2) && crop.y + crop.height <= max(source.1, 2))
                    let box = placement.box
                    #expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= target.0 && box.y + box.height <= target.1)
                }
            }
        }
    }
}
