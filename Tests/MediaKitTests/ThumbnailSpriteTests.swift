import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// The seek bar's thumbnails: where they are taken and placed (``ThumbnailLayout``), the sprite
/// made from a real file (``ThumbnailSprite``), and the file versions they belong to
/// (``FileIdentity/fingerprint``).
@Suite struct ThumbnailSpriteTests {
    /// 9 s of testsrc2 at 10 fps, a keyframe every 4 s, with B-frames.
    static func clip() throws -> String {
        try TestClips.clip("thumbnails-160x120.mp4", TestClips.lavfi(width: 160, height: 120, rate: 10, duration: 9)
            + ["-c:v", "libx264", "-g", "40", "-bf", "2", "-pix_fmt", "yuv420p"])
    }

    @Test func aClipOf30sHasOneEvery2sInRowsOf10() {
        let layout = ThumbnailLayout(duration: 30, pictureWidth: 1280, pictureHeight: 720)
        #expect(layout.times == stride(from: 0.0, to: 30, by: 2).map { $0 })
        #expect((layout.width, layout.height, layout.columns, layout.rows) == (160, 90, 10, 2))
        #expect((layout.spriteWidth, layout.spriteHeight) == (1600, 180))
        #expect(layout.origin(of: 0) == (0, 0) && layout.origin(of: 9) == (1440, 0) && layout.origin(of: 13) == (480, 90))
    }

    @Test(arguments: [0.5, 3, 7.3, 59.96, 125.04, 599.9, 600])
    func noGapLongerThan2sUpToTheEnd(_ duration: Double) {
        let times = ThumbnailLayout(duration: duration, pictureWidth: 640, pictureHeight: 480).times
        #expect(times.first == 0 && times.count <= ThumbnailLayout.maximumCount)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 } + [duration - times.last!]
        #expect(gaps.allSatisfy { $0 > 0 && $0 <= 2.001 }, "\(duration) s: \(gaps.max()!)")
    }

    @Test func aLongFileHas300EvenlySpread() {
        let times = ThumbnailLayout(duration: 3600, pictureWidth: 1920, pictureHeight: 1080).times
        #expect(times.count == 300 && times[1] == 12 && times.last == 3588)
    }

    @Test(arguments: [nil, 0, -1, .nan, .infinity] as [Double?])
    func anUnknownLengthHasOneAt0(_ duration: Double?) {
        let layout = ThumbnailLayout(duration: duration, pictureWidth: 320, pictureHeight: 240)
        #expect(layout.times == [0] && layout.columns == 1 && (layout.spriteWidth, layout.spriteHeight) == (160, 120))
    }

    @Test func heightsKeepTheShapeEvenAndBounded() {
        func height(_ width: Int, _ height: Int) -> Int { ThumbnailLayout(duration: 10, pictureWidth: width, pictureHeight: height).height }
        #expect(height(1920, 1080) == 90 && height(720, 576) == 128 && height(1080, 1920) == 284)
        #expect(height(16, 4096) == ThumbnailLayout.maximumHeight && height(4096, 16) == 2 && height(1000, 333) == 54)
    }

    /// Each cell of the sprite is the picture at its time or at most two frames after (the preview
    /// decoder skips non-reference B-frames; testsrc2 moves every frame, so the nearest of ffmpeg's
    /// frames names it), and the sprite is the layout's size.
    @Test func theSpriteHoldsThePictureAtEachTime() throws {
        let clip = try Self.clip()
        let (layout, jpeg) = try ThumbnailSprite.make(path: clip)
        #expect(layout.times == [0, 1.8, 3.6, 5.4, 7.2] && layout.height == 120)
        let header = try readHeader(jpeg)
        #expect((Int(header.width), Int(header.height)) == (layout.spriteWidth, layout.spriteHeight))
        let planes = try decodeToPlanes(jpeg, width: layout.spriteWidth, height: layout.spriteHeight)
        for (index, time) in layout.times.enumerated() {
            let origin = layout.origin(of: index)
            var cell: [UInt8] = []
            for row in 0..<120 {
                let start: Int = (origin.y + row) * layout.spriteWidth + origin.x
                cell += planes.y[start..<start + 160]
            }
            let frame = Int((time * 10).rounded())
            let candidates = try (max(0, frame - 2)...frame + 5).map { candidate in
                (candidate, psnr(cell, try TestClips.referenceFrame(of: clip, index: candidate, pixelFormat: "gray")))
            }
            let best = candidates.max { $0.1 < $1.1 }!
            #expect((frame...frame + 2).contains(best.0) && best.1 > 28,
                    "thumbnail \(index) at \(time) s (frame \(frame)): \(candidates.map { "\($0.0): \(formatted($0.1))" })")
        }
    }

    @Test func aFileThatIsNoVideoIsRefusedNamingWhy() throws {
        let path = TestClips.path("not-a-video.mp4")
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: path))
        #expect { _ = try ThumbnailSprite.make(path: path) } throws: { error in
            guard case .openFailed(let input, _) = error as? MediaError else { return false }
            return input == path
        }
    }

    @Test func anInterruptedSpriteStops() throws {
        let clip = try Self.clip()
        let interruption = Interruption()
        interruption.interrupt()
        #expect(throws: MediaError.self) { _ = try ThumbnailSprite.make(path: clip, interruption: interruption) }
    }

    @Test func theFingerprintChangesWithTheFileOnly() throws {
        let path = TestClips.path("fingerprint.bin")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let first = try #require(FileIdentity(path: path)).fingerprint
        #expect(FileIdentity(path: path)?.fingerprint == first && first.count == 16)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([4]))
        try handle.close()
        #expect(FileIdentity(path: path)?.fingerprint != first)
        #expect(FileIdentity(path: TestClips.path("no-such-file")) == nil)
    }
}
