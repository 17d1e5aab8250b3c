import Synchronization
import FilterKit
import Telemetry

/// A publish stream or a recording that is a rendition the page's viewers watch (``SharedEncode``):
/// no encoder of its own, the rendition's access units are muxed as they are. One encode serves all.
///
/// While connected the feed is attached (the rendition keeps encoding with nobody watching it
/// here) and asks for a keyframe every ``keyframeInterval``: a media server's readers start there
/// (HLS cuts its segments there), a recording is seeked there — each costs the rendition's viewers
/// a little quality (SSIM −0.003 on camera-like footage at 2 s against the page's own 10 s).
/// Without a unit for `keepAlive` (paused) it asks for one too, which a paused session answers with
/// a keyframe of the picture shown. Not connected, it lets go of the rendition.
final class SharedEncodeInput: WriterInput, @unchecked Sendable {
    /// A keyframe at least this often while the stream runs.
    static let keyframeInterval = Duration.seconds(2)
    private let feed: AccessUnitFeed
    private let frameRate: Double
    private let stopping: @Sendable () -> Bool
    private var thread: WorkerThread?
    private let finishing = Atomic<Bool>(false)
    /// Publish thread: when the last keyframe was written.
    private var lastKeyframe = ContinuousClock.now
    /// Written with the units, when the stream has sound.
    private let sound: SoundTrack?
    /// Publish thread: the time of the last unit written (seconds of the stream), for the sound's end.
    private var lastUnitTime: Double?

    /// With `sound` (attached by the owner), the stream has an AAC track, written with the units.
    init(_ encode: any SharedEncode, frameRate: Double, capacity: Int, sound: SoundTrack? = nil, droppedTotal: Counter,
         stopping: @escaping @Sendable () -> Bool) {
        feed = AccessUnitFeed(source: encode, frameRate: frameRate, capacity: capacity, sound: sound, droppedTotal: droppedTotal)
        self.sound = sound
        self.frameRate = frameRate
        self.stopping = stopping
    }

    func start(_ body: @escaping @Sendable () -> Void) {
        thread = WorkerThread(name: "publish", body)
    }

    func finish() {
        finishing.store(true, ordering: .releasing)
        feed.close()
        thread?.join()
        thread = nil
    }

    /// Whether `finish` was called: the thread should end.
    var isFinishing: Bool { finishing.load(ordering: .acquiring) }

    /// Units dropped because the writer fell behind (each overflow drops to the next keyframe).
    var droppedUnits: Int { feed.droppedUnits }

    /// How long `connect` waits for the rendition's keyframe (one comes within a second or two:
    /// forced keyframes are rate-limited to one a second, and a paused session re-renders for one).
    static let keyframeWait = Duration.seconds(5)

    /// Waits (at most ``keyframeWait``) for the rendition's next keyframe, whose SPS and PPS make
    /// the stream's header, then connects and writes it first.
    func connect(_ destination: VideoWriter.Destination, interruption: Interruption) throws(MediaError) -> VideoWriter {
        let destination = destination.startingTrack(sound)
        feed.attach()
        let source = feed.source
        let deadline = ContinuousClock.now + Self.keyframeWait
        var asked = ContinuousClock.now
        while true {
            guard !stopping(), !isFinishing, ContinuousClock.now < deadline else {
                feed.detach()
                throw destination.failure("no keyframe came from the rendition \(source.name) within \(Int(Self.keyframeWait.seconds)) s")
            }
            // Forced keyframes are rate-limited: the attach's ask is lost when a viewer's was
            // honoured just before, so ask again.
            if asked.duration(to: .now) >= .seconds(1) {
                source.requestKeyframe()
                asked = .now
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
        try writer.write(unit: unit.bytes, keyframe: unit.isKeyframe, at: unit.time)
        if unit.isKeyframe { lastKeyframe = .now }
        let time = Double(unit.time) / 1000
        try sound?.write(to: writer, pictureAt: time)
        lastUnitTime = time
    }

    /// The stream ends: its sound lasts as long as its pictures — and as the stream ran, when its
    /// last picture was still (paused: a unit a second), so the file is as long as the recording.
    func finishSound(on writer: VideoWriter) throws(MediaError) {
        guard let lastUnitTime else { return }
        try sound?.finish(to: writer, lastPictureAt: max(lastUnitTime, (feed.timeNow() ?? 0) - 1 / frameRate))
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
