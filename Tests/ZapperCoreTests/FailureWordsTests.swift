import Testing
import ZapperCore

struct FailureWordsTests {
    @Test(arguments: [
        ("http://127.0.0.1:9/ch/5/master.m3u8: connect(descriptor:addr:size:): Connection refused (errno: 111)", "The channel cannot be reached"),
        ("http://h/ch/2/1080p/index.m3u8: HTTP 503", "The channel's server has a problem"),
        ("http://h/x.m3u8: HTTP 404", "This channel is not on the air"),
        ("no first frame within 10 s: timed out", "The channel is not responding"),
        ("http://h/x.m3u8: the live playlist has not moved for 12 s", "The channel stopped sending"),
        ("segment 12: avformat_open_input (mpegts): Invalid data found when processing input", "The channel cannot be played"),
    ])
    func technicalReasonsBecomeWords(technical: String, words: String) {
        #expect(FailureWords.describe(technical) == words)
    }
}
