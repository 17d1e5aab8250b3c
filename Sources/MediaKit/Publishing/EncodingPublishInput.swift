import FilterKit
import Telemetry

/// A publish stream encoded from the session's frames by an encoder of its own, at the source's
/// size: frames come through an ``EncoderFeed`` (copies; the oldest waiting is dropped when the
/// encoder falls behind), and a paused session's last frame is sent again every `keepAlive`, so
/// that the server does not drop the stream as idle and late viewers get a picture. With a
/// ``SoundTrack``, the stream has an AAC track written with the pictures.
final class EncodingPublishInput: WriterInput, @unchecked Sendable {
    private let width: Int
    private let height: Int
    private let frameRate: Double
    private let options: PublisherOptions
    private let droppedTotal: Counter
    private let sound: SoundTrack?
    private var feed: EncoderFeed?
    /// Publish thread: the frame sent last (from the feed's pool), kept across connections.
    private var last: Frame?
    /// Publish thread: where the pictures go in the stream (kept across connections: each new
    /// connection's stream starts at its first picture).
    private var timeline: OutputTimeline

    /// `sound`: attached by the owner.
    init(width: Int, height: Int, frameRate: Double, options: PublisherOptions, sound: SoundTrack?, droppedTotal: Counter) {
        (self.width, self.height, self.frameRate) = (width, height, frameRate)
        timeline = OutputTimeline(frameRate: frameRate)
        self.options = options
        self.sound = sound
        self.droppedTotal = droppedTotal
    }

    /// Processing thread: queues a copy of `frame` with its source time and restart flag, as a
    /// recording's (``RecordingTake``): the publish thread places it on the stream's timeline.
    /// Returns at once.
    func offer(_ frame: Frame) {
        guard let feed else { return }
        feed.offer(frame, at: frame.time, marked: frame.isDiscontinuity)
    }

    func start(_ body: @escaping @Sendable () -> Void) {
        feed = EncoderFeed(name: "publish", width: width, height: height, capacity: options.queueCapacity,
                           droppedTotal: droppedTotal) { _ in body() }
    }

    func finish() { feed?.finish() }

    func connect(_ destination: VideoWriter.Destination, interruption: Interruption) throws(MediaError) -> VideoWriter {
        try VideoWriter(destination: destination.startingTrack(sound), width: width, height: height, frameRate: frameRate,
                        preset: options.preset, profile: options.profile, threads: options.threads,
                        encoders: Publisher.encoders, interruption: interruption)
    }

    func writeNext(to writer: VideoWriter, keepAlive: Duration) throws(MediaError) -> Bool {
        guard let feed else { return false }
        let next = feed.next(timeout: keepAlive)
        if let next {
            if let last { feed.recycle(last) }
            last = next
        }
        guard let frame = last else { return false }
        let time = timeline.stamp(frame, repeated: next == nil, wall: feed.elapsed, sound: sound)
        try writer.write(frame, at: Int64((time * 1000).rounded()))
        try sound?.write(to: writer, pictureAt: time)
        return true
    }

    func idle(until deadline: ContinuousClock.Instant, stopping: () -> Bool) {
        guard let feed else { return }
        while !stopping(), case let remaining = ContinuousClock.now.duration(to: deadline), remaining > .zero {
            guard let frame = feed.next(timeout: remaining) else { continue }
            if let last { feed.recycle(last) }
            last = frame
        }
    }

    func close() {
        guard let feed else { return }
        if let last { feed.recycle(last) }
        last = nil
        feed.close()
        feed.discardQueued()
    }
}
