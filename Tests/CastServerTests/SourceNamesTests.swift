@testable import CastServer
import MediaKit
import Testing

/// What viewers call the start input: a file by its name, a URL without its secrets.
@Suite struct SourceNamesTests {
    static func name(_ input: String) throws -> String {
        SourceNames.input(try InputSpec(parsing: input), opened: .opening("opened as", width: 64, height: 48))
    }

    @Test func aFileByItsNameAURLWithoutCredentialsOrQuery() throws {
        #expect(try Self.name("/srv/videos/holiday 2026.mp4") == "holiday 2026.mp4")
        #expect(try Self.name("clip.mp4") == "clip.mp4")
        #expect(try Self.name("https://user:secret@cdn.example/live/show.m3u8?token=abc#t=3") == "https://cdn.example/live/show.m3u8")
        #expect(try Self.name("rtsp://camera.local:554/stream") == "rtsp://camera.local:554/stream")
    }

    @Test func theTestPatternAndCamerasAsTheSourceNamesItself() throws {
        #expect(try Self.name("test:64x48@30") == "opened as")
        #expect(try Self.name("/dev/video0") == "opened as")
    }
}
