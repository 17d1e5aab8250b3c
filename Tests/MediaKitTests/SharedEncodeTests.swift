import FilterKit
import Foundation
@testable import MediaKit
import Synchronization
import Telemetry
import Testing

/// One encode serving a writer besides the page (`--publish-rendition`): the access units of a
/// real ``LiveVideoEncoder`` through an ``AccessUnitFeed`` into a ``VideoWriter`` that muxes them
/// as they are. The published stream end to end: test_e2e_publish.py.
@Suite struct SharedEncodeTests {
    @Test func parameterSetsAreFoundBehindEitherStartCode() {
        // 4-byte start code, SPS (7), 3-byte start code, PPS (8), then an IDR slice (5).
        let stream: [UInt8] = [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0, 0, 1, 0x68, 0xCE, 0x3C, 0x80, 0, 0, 0, 1, 0x65, 0x88, 0x84]
        let sets = stream.withUnsafeBytes { AnnexB.parameterSets(in: $0) }
        #expect(sets == [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x3C, 0x80])
        let slice: [UInt8] = [0, 0, 1, 0x41, 0x9A, 0x02]
        #expect(slice.withUnsafeBytes { AnnexB.parameterSets(in: $0) }.isEmpty)
    }

    @Test func aFeedStartsAtAKeyframeAndItsUnitsMakeAPlayableFile() throws {
        let encode = try PatternEncode()
        defer { encode.encoder.finish() }
        let feed = AccessUnitFeed(source: encode, frameRate: 25, capacity: 60)
        // Units before the attach are not the feed's; it asks for a keyframe to start at.
        try encode.play(5, from: RecorderTests.pattern())
        feed.attach()
        #expect(encode.keyframeRequests.load(ordering: .relaxed) == 1)
        try encode.play(30, from: RecorderTests.pattern())
        let first = try #require(feed.next(timeout: .seconds(2)))
        #expect(first.isKeyframe)
        #expect(AnnexB.parameterSets(in: first.bytes).starts(with: [0, 0, 0, 1, 0x67]), "an SPS first")

        let path = TestClips.path("shared-\(UUID().uuidString).mp4")
        defer { unlink(path) }
        let writer = try VideoWriter(destination: .init(url: path, format: "mp4", failure: { .recordFailed(path: path, reason: $0) }),
                                     copying: first.bytes, width: 320, height: 240, frameRate: 30, encoderName: encode.encoderName)
        var written = 0
        var unit: CopiedUnit? = first
        while let current = unit {
            try writer.write(unit: current.bytes, keyframe: current.isKeyframe, at: current.time)
            written += 1
            feed.recycle(current)
            unit = feed.next(timeout: .milliseconds(300))
        }
        feed.detach()
        try writer.finish()
        #expect(written >= 20, "\(written) units")

        let playback = try InputSpec.file(path).open()
        #expect(playback.info.codec == "h264" && playback.info.width == 320 && playback.info.height == 240)
        let decoded = Frame(width: 320, height: 240)
        var frames = 0
        while try playback.read(into: decoded) { frames += 1 }
        #expect(frames == written, "\(written) units written, \(frames) decoded")
    }

    @Test func aFeedThatOverflowsDropsUpToTheNextKeyframe() throws {
        let encode = try PatternEncode()
        defer { encode.encoder.finish() }
        let dropped = Counter()
        let feed = AccessUnitFeed(source: encode, frameRate: 25, capacity: 4, droppedTotal: dropped)
        feed.attach()
        // Nobody takes the units: the fifth overflows the queue. `play` returns once the feed has
        // been handed the unit of every frame.
        try encode.play(12, from: RecorderTests.pattern())
        #expect(dropped.value >= 5, "\(dropped.value) dropped")
        #expect(encode.keyframeRequests.load(ordering: .relaxed) >= 2, "the feed asked for a keyframe to start again")
        // What is queued now starts at a keyframe: after an overflow, nothing is taken before one.
        let head = try #require(feed.next(timeout: .seconds(2)))
        #expect(head.isKeyframe)
        feed.detach()
    }
}

/// A live encode of the test pattern that writers can attach to, as a rendition is.
private final class PatternEncode: SharedEncode, @unchecked Sendable {
    let name = "h264-240p"
    let width = 320
    let height = 240
    let encoder: LiveVideoEncoder
    private let sinks = Sinks()
    private let handedOut = HandedOut()
    let keyframeRequests = Atomic<Int>(0)
    var encoderName: String { encoder.name }

    init() throws {
        let sinks = sinks, handedOut = handedOut
        encoder = try LiveVideoEncoder(name: "test-h264", width: 320, height: 240, frameRate: 30,
                                       cap: BitRateCap(bitsPerSecond: 1_000_000, bufferBits: 100_000),
                                       keyframeInterval: .seconds(10), preset: "ultrafast", threads: 1) { unit in
            for sink in sinks.byToken.withLock({ Array($0.values) }) { sink(unit) }
            handedOut.record(unit.time)
        }
    }

    func attach(_ sink: @escaping @Sendable (EncodedAccessUnit) -> Void) -> Int {
        sinks.byToken.withLock { sinks in
            let token = (sinks.keys.max() ?? 0) + 1
            sinks[token] = sink
            return token
        }
    }

    func detach(_ token: Int) { _ = sinks.byToken.withLock { $0.removeValue(forKey: token) } }

    func requestKeyframe() {
        keyframeRequests.add(1, ordering: .relaxed)
        encoder.requestKeyframe()
    }

    /// Encodes `count` test-pattern frames, each once the sinks have been handed the unit of
    /// the one before (so the encoder drops none).
    func play(_ count: Int, from source: any VideoSource) throws {
        let frame = Frame(width: width, height: height)
        for _ in 0..<count {
            _ = try source.read(into: frame)
            let before = handedOut.units
            encoder.offer(frame, changed: false)
            guard handedOut.wait(after: before, forTime: frame.time, timeout: .seconds(5)) else {
                throw TestClipError(description: "the encoder gave no unit for the frame at \(frame.time) s")
            }
        }
    }
}

/// The units handed to the sinks (how many, and the latest's picture time), for waiting on them.
private final class HandedOut: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var count = 0
    private var latestTime: Double?

    func record(_ time: Double) {
        condition.lock()
        count += 1
        latestTime = time
        condition.broadcast()
        condition.unlock()
    }

    var units: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Whether, within `timeout`, a unit after the first `units` was handed out for the picture
    /// at `time` (a refinement of an earlier picture carries that picture's time).
    func wait(after units: Int, forTime time: Double, timeout: Duration) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        while count <= units || latestTime != time {
            guard condition.wait(until: deadline) else { return count > units && latestTime == time }
        }
        return true
    }
}

private final class Sinks: Sendable {
    let byToken = Mutex<[Int: @Sendable (EncodedAccessUnit) -> Void]>([:])
}
