import Testing
import ZapperCore

/// The picture queue's rule: the newest picture due, older ones dropped unseen; bounded by count and bytes.
struct DuePicturesTests {
    final class Picture: VideoPicture {
        let byteSize: Int
        init(_ byteSize: Int = 100) { self.byteSize = byteSize }
    }

    static func queue(_ times: [Double], maxCount: Int = 24, maxBytes: Int = 1 << 20) -> DuePictures {
        var due = DuePictures(maxCount: maxCount, maxBytes: maxBytes)
        for (index, time) in times.enumerated() { due.append(TimedPicture(time: time, picture: Picture(), segment: index)) }
        return due
    }

    @Test func theFirstPictureShowsAtOnceBeforeAnythingIsShown() {
        var due = Self.queue([3, 3.04, 3.08])
        let result1 = due.take(at: nil)
        #expect(result1?.time == 3)
        #expect(due.pictures.count == 2)
    }

    @Test func theNewestDuePictureIsTakenAndTheOlderOnesCounted() throws {
        var due = Self.queue([0, 0.04, 0.08, 0.12, 0.16])
        let result2 = due.take(at: -1)
        #expect(result2 == nil)
        let result3 = due.take(at: 0.1)
        let taken = try #require(result3)
        #expect(taken.time == 0.08)
        #expect(taken.dropped == 2)
        #expect(due.pictures.map(\.time) == [0.12, 0.16])
        let result4 = due.take(at: 0.12)
        #expect(result4?.dropped == 0)
    }

    @Test func fullByCountOrByBytes() {
        #expect(Self.queue([0, 1, 2], maxCount: 3).isFull)
        #expect(!Self.queue([0, 1], maxCount: 3).isFull)
        var due = Self.queue([0, 1], maxCount: 24, maxBytes: 200)
        #expect(due.isFull)
        #expect(due.bytes == 200)
        due.removeFirst()
        #expect(!due.isFull)
        #expect(due.bytes == 100)
        due.removeAll()
        #expect(due.isEmpty && due.bytes == 0)
    }

    /// 4K pictures each larger than the byte bound: a few still wait, no more.
    @Test func picturesLargerThanTheByteBoundStillGetTheLeastCount() {
        var due = DuePictures(maxCount: 24, maxBytes: 8 << 20, minCount: 3)
        due.append(TimedPicture(time: 0, picture: Picture(12 << 20), segment: 0))
        #expect(!due.isFull)
        due.append(TimedPicture(time: 0.033, picture: Picture(12 << 20), segment: 0))
        #expect(!due.isFull)
        due.append(TimedPicture(time: 0.067, picture: Picture(12 << 20), segment: 0))
        #expect(due.isFull)
        #expect(DuePictures(maxCount: 2, maxBytes: 1, minCount: 5).minCount == 2)
    }
}
