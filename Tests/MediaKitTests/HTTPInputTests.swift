import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// Files and streams over HTTP from a real local server: a server that answers byte ranges
/// gives a seekable file, one that does not a live stream; a dropped connection resumes.
@Suite("HTTP inputs", .serialized, .timeLimit(.minutes(3)))
struct HTTPInputTests {
    /// 1 s at 20 fps with its index first (read front to back in one request).
    static let clip = ClipSpec("http-20fps.mp4", rate: 20, frameCount: 20,
                               codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5", "-bf", "0",
                                       "-movflags", "+faststart"])

    /// Every frame time `source` gives until its end.
    static func times(of source: any VideoSource) throws -> [Double] {
        let frame = Frame(width: source.info.width, height: source.info.height)
        var times: [Double] = []
        while try source.read(into: frame) { times.append(frame.time) }
        return times
    }

    @Test func aFileOnARangeServerIsSeekableWithItsDuration() throws {
        let server = try MediaHTTPServer(serving: try Self.clip.make(), ranges: true)
        defer { server.stop() }
        let source = try InputSpec.file(server.url).open()
        let seekable = try #require(source as? any SeekableVideoSource, "\(server.url) opened as live")
        #expect(!source.info.isLive)
        #expect(abs((source.info.duration ?? 0) - 1) < 0.01, "duration \(String(describing: source.info.duration))")
        let frame = Frame(width: source.info.width, height: source.info.height)
        try seekable.seek(to: 0.5, into: frame)
        #expect(abs(frame.time - 0.5) < 1e-6, "seek to 0.5 s gave the frame at \(frame.time) s")
        try seekable.verifyUnchanged()  // a URL does not change as far as anyone can tell
        #expect(try Self.times(of: source).count == 9)
    }

    @Test func aServerWithoutRangesGivesALiveStream() throws {
        let server = try MediaHTTPServer(serving: try Self.clip.make(), ranges: false)
        defer { server.stop() }
        let source = try InputSpec.file(server.url).open()
        #expect(source is LiveSource)
        #expect(source.info.isLive && source.info.duration == nil)
    }

    @Test func aDroppedConnectionResumesAtTheByteItBrokeOff() throws {
        let path = try Self.clip.make()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let server = try MediaHTTPServer(serving: path, ranges: true, dropAfter: size / 2)
        defer { server.stop() }
        let source = try InputSpec.file(server.url).open()
        // Before: the read at the cut failed ("Input/output error") and the error stuck.
        let times = try Self.times(of: source)
        let frameNumbers = times.map { Int(($0 * 20).rounded()) }
        #expect(frameNumbers == Array(0..<20), "frames read across the cut: \(times)")
    }
}
