import Testing
import ZapperAudio
import ZapperDisplay
import ZapperInput
import ZapperMedia
import ZapperUI

/// Each backend reaches its real C library.
@Suite struct BackendLibraryTests {
    @Test func ffmpegDecodesTheCodecsLiveTVUses() {
        #expect(!FFmpegLibrary.version.isEmpty)
        for codec in ["h264", "hevc", "aac", "ac3", "mp2"] {
            #expect(FFmpegLibrary.canDecode(codec), "\(codec)")
        }
        #expect(FFmpegLibrary.canDemux("mpegts"))
        #expect(!FFmpegLibrary.canDecode("no-such-codec"))
    }

    @Test func ffmpegErrorsCarryFFmpegsMessage() throws {
        #expect(throws: AVError.self) { try AVError.check(-2, "avformat_open_input") }
        let error = AVError(code: -2, operation: "avformat_open_input")
        #expect(error.description == "avformat_open_input: No such file or directory")
        #expect(try AVError.check(5, "ok") == 5)
    }

    @Test func alsaErrorsCarryALSAsMessage() {
        #expect(ALSALibrary.version.hasPrefix("1."))
        #expect(ALSAError(code: -32, operation: "snd_pcm_writei").description == "snd_pcm_writei: Broken pipe")
    }

    @Test func evdevNamesKeysAsTheKernelDoes() {
        #expect(EvdevCodes.keyCode(named: "KEY_CHANNELUP") == 0x192)
        #expect(EvdevCodes.keyCode(named: "BTN_SOUTH") == 0x130)
        #expect(EvdevCodes.keyCode(named: "KEY_NUMERIC_5") == 0x205)
        #expect(EvdevCodes.keyName(0x193) == "KEY_CHANNELDOWN")
        #expect(EvdevCodes.keyCode(named: "KEY_TELEPORT") == nil)
    }

    @Test func kmsDeviceListIsEmptyWithoutDRM() {
        // This machine has no /dev/dri; a folder without cards lists none.
        #expect(KMSDevices.cardPaths(directory: "/nonexistent").isEmpty)
        #expect(Errno(2, operation: "open /dev/dri/card0").description == "open /dev/dri/card0: No such file or directory")
    }

    @Test func pangoDrawsText() {
        let image = TextRaster.render("Zapper 42")
        #expect(image.width > 100 && image.height > 20)
        var inked = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y) >> 24 > 0x80 {
                inked += 1
            }
        }
        // Glyphs cover part of the box, not none and not all of it.
        #expect(inked > image.width * image.height / 50)
        #expect(inked < image.width * image.height / 2)
    }
}
