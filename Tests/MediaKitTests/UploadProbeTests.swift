import Foundation
import MediaKit
import Testing

@Suite("Upload probe", .timeLimit(.minutes(1)))
struct UploadProbeTests {
    @Test("an H.264 MP4 reports its container, size, codec and length")
    func h264MP4() throws {
        let path = try TestClips.clip("upload-h264.mp4", TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let report = try UploadProbe.inspect(path: path)
        #expect(report.container.split(separator: ",").contains("mp4"))
        #expect(report.codec == "h264")
        #expect(report.width == 320 && report.height == 240)
        #expect(abs((report.duration ?? 0) - 2) < 0.1, "duration \(String(describing: report.duration))")
    }

    @Test("a VP9 WebM with audio is a video")
    func vp9WebMWithAudio() throws {
        let path = try TestClips.clip("upload-vp9.webm", TestClips.lavfi(width: 160, height: 90, rate: 10, duration: 1)
            + ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libvpx-vp9", "-deadline", "realtime",
               "-cpu-used", "8", "-c:a", "libopus"])
        let report = try UploadProbe.inspect(path: path)
        #expect(report == UploadProbe.Report(container: "matroska,webm", duration: report.duration, width: 160, height: 90, codec: "vp9"))
        #expect(report.duration != nil)
    }

    /// The probe's message for `path`, which must be one line naming the path.
    private func failure(_ path: String) -> String {
        let error = #expect(throws: MediaError.self) { _ = try UploadProbe.inspect(path: path) }
        let message = error?.description ?? ""
        #expect(message.contains(path) && !message.contains("\n"), "\(message)")
        return message
    }

    @Test("a text file is not a video")
    func textFile() throws {
        let path = TestClips.path("upload-notes.mp4")
        try "just some text, not a video\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(failure(path).contains("not a video"))
    }

    @Test("an empty file is not a video")
    func emptyFile() throws {
        let path = TestClips.path("upload-empty.webm")
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(failure(path).contains("not a video"))
    }

    @Test("audio alone has no video stream")
    func audioOnly() throws {
        let path = try TestClips.clip("upload-tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-c:a", "aac"])
        #expect(failure(path).contains("has no video stream"))
    }

    @Test("a still picture is refused: image formats are not among the containers")
    func stillPicture() throws {
        let path = try TestClips.clip("upload-still.png", TestClips.lavfi(width: 64, height: 48, rate: 1, duration: 1)
            + ["-frames:v", "1"])
        #expect(failure(path).contains("not a video"))
    }

    @Test("a playlist naming another file is refused, not followed")
    func playlist() throws {
        let clip = try TestClips.clip("upload-segment.ts", TestClips.lavfi(width: 160, height: 120, rate: 10, duration: 1)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let path = TestClips.path("upload-playlist.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile://\(clip)\n#EXT-X-ENDLIST\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(failure(path).contains("not a video"))
    }

    @Test("an MP4 cut before its index is not a video; one whose pictures are damaged has none to decode")
    func damaged() throws {
        let whole = try TestClips.clip("upload-h264.mp4", TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let cut = TestClips.path("upload-cut.mp4")
        try Data(bytes.prefix(bytes.count / 3)).write(to: URL(fileURLWithPath: cut))
        #expect(!failure(cut).isEmpty)

        // Faststart keeps the index in front; zeroing everything after it leaves no picture.
        let faststart = try TestClips.clip("upload-faststart.mp4", TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        var damaged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: faststart)))
        let mdat = try #require(damaged.indices.dropLast(4).first { damaged[$0..<$0 + 4] == [0x6D, 0x64, 0x61, 0x74] })
        for index in (mdat + 4)..<damaged.count { damaged[index] = 0 }
        let zeroed = TestClips.path("upload-zeroed.mp4")
        try Data(damaged).write(to: URL(fileURLWithPath: zeroed))
        #expect(failure(zeroed).contains("no picture could be decoded"))
    }
}
