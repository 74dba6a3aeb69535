import Foundation
import ZapperCore
@testable import ZapperGuide

/// `Date` of a UTC wall-clock time.
func utcDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// Reads a guide given as text (UTF-8), through the streaming reader.
func readGuide(_ text: String, options: GuideReader.Options = .init(), chunkSize: Int = 64 * 1024,
               source: String = "test.xml") throws(GuideReadError) -> GuideDocument {
    try GuideReader.read(bytes: Array(text.utf8), source: source, options: options, chunkSize: chunkSize)
}

/// The error a read throws, or nil when it does not.
func readError(_ bytes: [UInt8], source: String = "bad.xml") -> GuideReadError? {
    do {
        _ = try GuideReader.read(bytes: bytes, source: source, chunkSize: 1000)
        return nil
    } catch {
        return error
    }
}

/// A file in a fresh temporary directory, removed by the caller.
func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guide-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

/// gzip-compressed bytes, made by the system's gzip (not by the code under test).
func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
    let input = try temporaryFile("in", bytes)
    defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n", input.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
}

/// The repository's root (for channels/ files).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// What the demo origin serves at /guide.xml (see OriginKit's GuideWriter):
/// two display names and an icon per channel, half-hour programmes with
/// `lang="en"` texts and a VCHIP rating, times in `+0000`.
let originShapedGuide = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE tv SYSTEM "xmltv.dtd">
    <tv generator-info-name="zapper-origin">
      <channel id="red.zapper">
        <display-name>Red One</display-name>
        <display-name>1</display-name>
        <icon src="http://127.0.0.1:8600/logos/1.png"/>
      </channel>
      <channel id="green.zapper">
        <display-name>Green Two</display-name>
        <display-name>2</display-name>
        <icon src="http://127.0.0.1:8600/logos/2.png"/>
      </channel>
      <programme start="20261121060000 +0000" stop="20261121063000 +0000" channel="red.zapper">
        <title lang="en">World Report</title>
        <sub-title lang="en">Episode 12</sub-title>
        <desc lang="en">Headlines from around the world, on the hour. On Red One.</desc>
        <rating system="VCHIP"><value>TV-G</value></rating>
      </programme>
      <programme start="20261121063000 +0000" stop="20261121070000 +0000" channel="red.zapper">
        <title lang="en">Business Today</title>
        <sub-title lang="en">Episode 13</sub-title>
        <desc lang="en">Markets, money and the people who move them. On Red One.</desc>
        <rating system="VCHIP"><value>TV-G</value></rating>
      </programme>
      <programme start="20261121060000 +0000" stop="20261121063000 +0000" channel="green.zapper">
        <title lang="en">The Long Night</title>
        <sub-title lang="en">Episode 12</sub-title>
        <desc lang="en">A thriller set over one winter night. On Green Two.</desc>
        <rating system="VCHIP"><value>TV-MA</value></rating>
      </programme>
    </tv>

    """

/// What tvheadend and the xmltv.se grabbers write: several languages, credits,
/// episode numbers, icons, video/audio details, star ratings, a CDATA
/// description, ratings in two systems, entities.
let grabberShapedGuide = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE tv SYSTEM "xmltv.dtd">
    <tv source-info-url="http://xmltv.example/" source-info-name="Example" generator-info-name="tv_grab_example">
      <channel id="svt1.svt.se">
        <display-name lang="sv">SVT1</display-name>
        <display-name lang="en">SVT 1</display-name>
        <icon src="http://logos.example/svt1.png" width="200" height="100"/>
        <url>http://www.svt.se/</url>
      </channel>
      <programme start="20261121063000 +0100" stop="20261121071500 +0100" channel="svt1.svt.se">
        <title lang="sv">Morgonstudion</title>
        <title lang="en">Morning Studio</title>
        <sub-title lang="sv">Del 3 av 8</sub-title>
        <sub-title lang="en">Part 3 of 8</sub-title>
        <desc lang="sv">Nyheter &amp; väder från hela landet.</desc>
        <desc lang="en">News &amp; weather &#8212; from the whole country &lt;live&gt;.</desc>
        <credits>
          <director>Anna Berg</director>
          <actor role="Host">Erik Lund</actor>
          <presenter>Sara Holm</presenter>
        </credits>
        <date>2026</date>
        <category lang="sv">Nyheter</category>
        <category lang="en">News</category>
        <category lang="en">Current affairs</category>
        <episode-num system="xmltv_ns">2.2.</episode-num>
        <episode-num system="onscreen">S3E3</episode-num>
        <icon src="http://img.example/morgon.jpg"/>
        <url>http://www.svt.se/morgonstudion</url>
        <video><present>yes</present><aspect>16:9</aspect><quality>HDTV</quality></video>
        <audio><stereo>stereo</stereo></audio>
        <previously-shown start="20261120063000 +0100" channel="svt1.svt.se"/>
        <subtitles type="teletext"><language>sv</language></subtitles>
        <rating system="VCHIP"><value>TV-14</value><icon src="http://img.example/tv14.png"/></rating>
        <rating system="FSK"><value>12</value></rating>
        <rating><value>PG</value></rating>
        <star-rating system="imdb"><value>3/5</value></star-rating>
      </programme>
      <programme start="20261121071500 +0100" stop="20261121080000 +0100" channel="svt1.svt.se">
        <title>Film: <![CDATA[Rock & Roll <Live>]]></title>
        <desc><![CDATA[A concert film & more <b>bold</b>.]]></desc>
      </programme>
    </tv>

    """
