import Foundation
import MediaKit
import Testing

@Suite("Upload probe", .timeLimit(.minutes(3)))
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

    @Test("a file with more streams than maxStreams is refused")
    func tooManyStreams() throws {
        let one = try TestClips.clip("upload-one-stream.mkv", TestClips.lavfi(width: 32, height: 32, rate: 5, duration: 0.4)
            + ["-c:v", "mpeg4"])
        let maps = (0...UploadProbe.maxStreams).flatMap { _ in ["-map", "0:v"] }
        let many = try TestClips.clip("upload-many-streams.mkv", ["-i", one] + maps + ["-c", "copy"])
        #expect(failure(many).contains("more than \(UploadProbe.maxStreams) streams"))
        #expect(try UploadProbe.inspect(path: one).codec == "mpeg4")
    }

    @Test("damaged copies of real clips answer, each within the time limit", arguments: ["mp4", "mkv", "avi", "ts"])
    func mutatedClips(_ container: String) throws {
        let clip = try TestClips.clip("upload-mutate.\(container)", TestClips.lavfi(width: 160, height: 120, rate: 10, duration: 1)
            + ["-c:v", container == "avi" ? "mpeg4" : "libx264", "-pix_fmt", "yuv420p", "-g", "5"])
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        var random = BadInputTests.SeededBytes(state: 20_261_201)
        var accepted = 0
        for round in 0..<12 {
            var bytes = original
            // Headers and indexes are where parsers trust sizes: damage the first 4 KB hardest.
            for _ in 0..<(1 + round * 4) {
                let span = Int(random.next()) % 2 == 0 ? min(4096, bytes.count) : bytes.count
                bytes[(Int(random.next()) << 8 | Int(random.next())) % span] = random.next()
            }
            if round % 4 == 3 { bytes = Array(bytes.prefix(bytes.count * Int(random.next()) / 255)) }
            let path = TestClips.path("upload-mutated-\(round).\(container)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let started = ContinuousClock.now
            if (try? UploadProbe.inspect(path: path)) != nil { accepted += 1 }
            #expect(started.duration(to: .now) < UploadProbe.timeLimit, "round \(round)")
        }
        print("\(container): \(accepted) of 12 damaged copies still accepted")
    }
}
