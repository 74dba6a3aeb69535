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

    /// Broadcast's anamorphic pictures: the coded size times the sample aspect ratio.
    @Test func theSampleAspectRatioShapesThePicture() {
        // 720x576 with SAR 64:45 is 16:9: it fills a 16:9 screen (square pixels: a 5:4 box with bars).
        #expect(PicturePlacement(mode: .fit, source: (720, 576), target: (1920, 1080), sampleAspect: 64.0 / 45).box == (0, 0, 1920, 1080))
        #expect(PicturePlacement(mode: .fit, source: (720, 576), target: (1920, 1080)).box == (285, 0, 1350, 1080))
        // With SAR 16:15 it is 4:3: pillarboxed 240 pixels a side.
        #expect(PicturePlacement(mode: .fit, source: (720, 576), target: (1920, 1080), sampleAspect: 16.0 / 15).box == (240, 0, 1440, 1080))
        // 1440x1080 with SAR 4:3 fills a 16:9 screen.
        #expect(PicturePlacement(mode: .fit, source: (1440, 1080), target: (1920, 1080), sampleAspect: 4.0 / 3).box == (0, 0, 1920, 1080))
        // Fill on a 4:3 screen crops a 16:9 anamorphic picture's sides, in coded pixels: 3/4 of its 720.
        let fill = PicturePlacement(mode: .fill, source: (720, 576), target: (1440, 1080), sampleAspect: 64.0 / 45)
        #expect(fill.crop == (90, 0, 540, 576))
        #expect(fill.box == (0, 0, 1440, 1080))
    }

    @Test func aSampleAspectNoBroadcasterSendsIsTakenAsSquare() {
        let square = PicturePlacement(mode: .fit, source: (720, 576), target: (1920, 1080))
        for hostile in [0, -1, 5, 0.1, .infinity, .nan] {
            #expect(PicturePlacement(mode: .fit, source: (720, 576), target: (1920, 1080), sampleAspect: hostile) == square, "\(hostile)")
        }
    }

    @Test func everyCropStaysInsideTheSource() {
        let sources = [(1, 1), (2, 2), (426, 240), (720, 576), (1920, 1080), (3840, 1600)]
        let targets = [(1280, 720), (1920, 1080), (1280, 800), (720, 576)]
        for mode in PictureMode.allCases {
            for source in sources {
                for target in targets {
                    for sar in [1.0, 64.0 / 45, 16.0 / 15, 4.0 / 3, 0.25, 4] {
                        let placement = PicturePlacement(mode: mode, source: source, target: target, sampleAspect: sar)
                        let crop = placement.crop
                        #expect(crop.x >= 0 && crop.y >= 0 && crop.x + crop.width <= max(source.0, 2) && crop.y + crop.height <= max(source.1, 2))
                        let box = placement.box
                        #expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= target.0 && box.y + box.height <= target.1)
                    }
                }
            }
        }
    }
}
