@testable import CastServer
import Testing

/// `--allow-source` patterns, and how an opened URL is shown.
@Suite struct SourcePatternTests {
    @Test(arguments: [
        ("rtsp://cams.local/*", "rtsp://cams.local/front", true),
        ("rtsp://cams.local/*", "rtsp://cams.local/", true),
        ("rtsp://cams.local/*", "rtsp://cams.local.evil.com/x", false),
        ("rtsp://cams.local/*", "http://cams.local/front", false),
        ("http://127.0.0.1:*/*.mp4", "http://127.0.0.1:8000/a/b.mp4", true),
        ("http://127.0.0.1:*/*.mp4", "http://127.0.0.1:8000/a/b.mkv", false),
        ("srt://relay:9000?streamid=*", "srt://relay:9000?streamid=read:cam1", true),
        ("https://example.com/live.m3u8", "https://example.com/live.m3u8", true),
        ("https://example.com/live.m3u8", "https://example.com/live.m3u8x", false),
        ("rtmp://a/*b*c", "rtmp://a/xbyc", true),
        ("rtmp://a/*b*c", "rtmp://a/xbyd", false),
    ])
    func matchesWholeURLs(pattern: String, url: String, allowed: Bool) throws {
        #expect(try #require(SourcePattern(pattern)).matches(url) == allowed)
    }

    @Test func aPatternNamesAScheme() {
        #expect(SourcePattern("cams.local/*") == nil)
        #expect(SourcePattern("*://anything") == nil)
        #expect(SourcePattern("://x") == nil)
        #expect(SourcePattern("rtsp://x") != nil)
    }

    /// A backtracking matcher would take 2^40 steps here; this one takes pattern × text.
    @Test func manyStarsAgainstALongURL() throws {
        let pattern = try #require(SourcePattern("http://" + String(repeating: "*a", count: 40) + "b"))
        #expect(!pattern.matches("http://" + String(repeating: "a", count: 60_000)))
        #expect(pattern.matches("http://" + String(repeating: "a", count: 60_000) + "b"))
    }

    @Test func viewersSeeNoCredentialsNorQuery() {
        #expect(URLSources.shown("rtsp://user:secret@cams.local:554/front?token=1") == "rtsp://cams.local:554/front")
        #expect(URLSources.shown("http://host/a@b.mp4") == "http://host/a@b.mp4")
        #expect(URLSources.shown("srt://relay:9000?streamid=x") == "srt://relay:9000")
    }

    @Test func credentialsCannotDisguiseTheHost() throws {
        let sources = URLSources(patterns: [try #require(SourcePattern("http://127.0.0.1:*/*"))]) { _ in { _ in fatalError() } }
        #expect(sources.allow("http://127.0.0.1:8000/clip.mp4?token=1"))
        #expect(sources.allow("http://user:pw@127.0.0.1:8000/clip.mp4"))
        #expect(!sources.allow("http://127.0.0.1:80@evil.com/clip.mp4"))
        #expect(!sources.allow("http://127.0.0.1:80@evil.com:81/clip.mp4"))
    }
}
