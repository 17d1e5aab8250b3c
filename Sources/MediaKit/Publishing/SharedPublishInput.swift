import FilterKit
import Telemetry

/// A publish stream that is a rendition the page's viewers watch (``SharedEncode``): no encoder
/// of its own, the rendition's access units are muxed as they are. One encode serves all.
///
/// While connected the feed is attached (the rendition keeps encoding with nobody watching it
/// here) and asks for a keyframe every ``keyframeInterval``: a media server's readers start there
/// (HLS cuts its segments there) — each costs the rendition's viewers a little quality (SSIM
/// −0.003 on camera-like footage at 2 s against the page's own 10 s). Without a unit for
/// `keepAlive` (paused) it asks for one too, which a paused session answers with a keyframe of the
/// picture shown. Not connected, it lets go of the rendition.
final class SharedPublishInput: PublishInput, @unchecked Sendable {
    /// A keyframe at least this often while the stream runs.
    static let keyframeInterval = Duration.seconds(2)
    private let feed: AccessUnitFeed
    private let frameRate: Double
    private let stopping: @Sendable () -> Bool
    private var thread: WorkerThread?
    /// Publish thread: when the last keyframe was written.
    private var lastKeyframe = ContinuousClock.now

    init(_ encode: any SharedEncode, frameRate: Double, capacity: Int, droppedTotal: Counter,
         stopping: @escaping @Sendable () -> Bool) {
        feed = AccessUnitFeed(source: encode, capacity: capacity, droppedTotal: droppedTotal)
        self.frameRate = frameRate
        self.stopping = stopping
    }

    func start(_ body: @escaping @Sendable () -> Void) {
        thread = WorkerThread(name: "publish", body)
    }

    func finish() {
        thread?.join()
        thread = nil
    }

    /// Waits (within the connect bound) for the rendition's next keyframe, whose SPS and PPS make
    /// the stream's header, then connects and writes it first.
    func connect(_ destination: VideoWriter.Destination, interruption: Interruption) throws(MediaError) -> VideoWriter {
        feed.attach()
        let source = feed.source
        while true {
            guard !stopping(), !interruption.hasTimedOut else {
                feed.detach()
                throw destination.failure("no keyframe came from the rendition \(source.name)")
            }
            guard let keyframe = feed.next(timeout: .milliseconds(100)) else { continue }
            defer { feed.recycle(keyframe) }
            do throws(MediaError) {
                let writer = try VideoWriter(destination: destination, copying: keyframe.bytes, width: source.width,
                                             height: source.height, frameRate: frameRate,
                                             encoderName: "\(source.encoderName) (shared: \(source.name))",
                                             interruption: interruption)
                try write(keyframe, to: writer)
                return writer
            } catch {
                feed.detach()
                throw error
            }
        }
    }

    func writeNext(to writer: VideoWriter, keepAlive: Duration) throws(MediaError) -> Bool {
        if lastKeyframe.duration(to: .now) >= Self.keyframeInterval { feed.source.requestKeyframe() }
        guard let unit = feed.next(timeout: keepAlive) else {
            feed.source.requestKeyframe()
            return false
        }
        defer { feed.recycle(unit) }
        try write(unit, to: writer)
        return true
    }

    private func write(_ unit: CopiedUnit, to writer: VideoWriter) throws(MediaError) {
        try writer.write(unit: unit.bytes, keyframe: unit.isKeyframe, at: unit.milliseconds)
        if unit.isKeyframe { lastKeyframe = .now }
    }

    func idle(until deadline: ContinuousClock.Instant, stopping: () -> Bool) {
        feed.detach()
        // Nothing comes once detached: this waits, looking at `stopping` 4 times a second.
        while !stopping(), case let remaining = ContinuousClock.now.duration(to: deadline), remaining > .zero {
            if let unit = feed.next(timeout: min(remaining, .milliseconds(250))) { feed.recycle(unit) }
        }
    }

    func close() { feed.detach() }
}
