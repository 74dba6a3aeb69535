import Testing
import ZapperCore

/// `SubtitleBitmap`'s limits on what a stream sends, and `SubtitleBitmapQueue`'s rules of when
/// each page shows.
struct SubtitleBitmapTests {
    func region(x: Int = 40, y: Int = 480, width: Int = 4, height: Int = 2) -> SubtitleBitmap.Region {
        SubtitleBitmap.Region(x: x, y: y, width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4))
    }

    func page(_ id: Int, regions: Int = 1) -> SubtitleBitmap {
        SubtitleBitmap(id: id, canvasWidth: 720, canvasHeight: 576, regions: (0..<regions).map { _ in region() })!
    }

    @Test func aCanvasNoStreamMayHaveIsRefused() {
        #expect(SubtitleBitmap(id: 1, canvasWidth: 0, canvasHeight: 576, regions: []) == nil)
        #expect(SubtitleBitmap(id: 1, canvasWidth: 3840, canvasHeight: 2160, regions: []) == nil)
        #expect(SubtitleBitmap(id: 1, canvasWidth: 1920, canvasHeight: 1080, regions: []) != nil)
    }

    @Test func regionsOutsideTheCanvasOrOfTheWrongSizeAreLeftOut() throws {
        var short = region()
        short.pixels.removeLast()
        let bitmap = try #require(SubtitleBitmap(id: 1, canvasWidth: 720, canvasHeight: 576, regions: [
            region(), region(x: 718), region(y: 575), region(x: -1), region(width: 0), short,
            region(x: Int.max - 2), region(x: 716, y: 574),
        ]))
        #expect(bitmap.regions.map(\.x) == [40, 716])
        let many = try #require(SubtitleBitmap(id: 2, canvasWidth: 720, canvasHeight: 576, regions: Array(repeating: region(), count: 20)))
        #expect(many.regions.count == SubtitleBitmap.mostRegions)
    }

    @Test func theCanvasIsStretchedOverTheScreen() {
        let frame = page(1).frame(of: region(x: 360, y: 288, width: 72, height: 57), onScreen: 1920, 1080)
        #expect(abs(frame.x - 960) < 1e-9 && abs(frame.y - 540) < 1e-9)
        #expect(abs(frame.width - 192) < 1e-9 && abs(frame.height - 106.875) < 1e-9)
    }

    @Test func aPageShowsFromItsStartUntilItsEndOrTheNext() {
        var queue = SubtitleBitmapQueue()
        queue.add(.init(start: 10, end: 14, bitmap: page(1)))
        queue.add(.init(start: 15, end: nil, bitmap: page(2)))
        queue.add(.init(start: 20, end: nil, bitmap: page(3, regions: 0)))
        #expect(queue.showing(at: 9.9) == nil)
        #expect(queue.showing(at: 10)?.id == 1)
        #expect(queue.showing(at: 13.9)?.id == 1)
        #expect(queue.showing(at: 14) == nil, "its time-out")
        #expect(queue.showing(at: 16)?.id == 2)
        #expect(queue.showing(at: 19.9)?.id == 2, "no time-out: until the next")
        #expect(queue.showing(at: 21) == nil, "an empty page clears the screen")
    }

    @Test func pagesComingOutOfOrderAreShownInTimeOrderAndTheQueueIsBounded() {
        var queue = SubtitleBitmapQueue()
        queue.add(.init(start: 5, end: nil, bitmap: page(2)))
        queue.add(.init(start: 1, end: nil, bitmap: page(1)))
        #expect(queue.showing(at: 2)?.id == 1)
        #expect(queue.showing(at: 6)?.id == 2)
        for id in 0..<100 { queue.add(.init(start: 100 + Double(id), end: nil, bitmap: page(10 + id))) }
        // The oldest went: the first kept is the 16th from the end.
        let kept = 100 - SubtitleBitmapQueue.capacity
        #expect(queue.showing(at: 100 + Double(kept) - 0.5) == nil)
        #expect(queue.showing(at: 100 + Double(kept) + 0.5)?.id == 10 + kept)
    }
}
