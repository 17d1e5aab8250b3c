import FilterKit
import Synchronization

/// Pushes the session's frames as H.264 to a media server (`--publish`): flv over RTMP, RTSP,
/// or MPEG-TS over SRT (see ``PublishTarget``), reconnecting with ``RetryPolicy``'s delays for
/// as long as it runs; with the source's sound as AAC after ``publishSound(from:)``.
///
/// The stream is either encoded here — the processing thread hands every frame to
/// ``publish(_:)``, which copies it and returns at once; encoding runs on the `publish` thread
/// (``EncodingPublishInput``) — or, after ``share(_:)``, it is a rendition the page's viewers
/// watch, its units muxed as they are (``SharedEncodeInput``). Connecting and writing run on the
/// publisher's own `publish` thread. Every
/// connect and write is bounded by ``PublisherOptions``' timeouts through an ``Interruption``,
/// so a server that stops answering costs the stream a reconnect, never the preview a frame.
/// `onChange` is called (on the publish thread) at every change of ``PublishStatus/connection``.
/// Thread-safe.
public final class Publisher: Sendable {
    public let target: PublishTarget
    public let options: PublisherOptions
    public let counters = PublishCounters()
    /// Encoders tried in order: only H.264 fits every container here (flv, RTSP, MPEG-TS).
    static let encoders = ["libx264", "libopenh264"]
    /// The stream's picture size (a shared encode's may differ: ``share(_:)``).
    public let width: Int
    public let height: Int
    private let frameRate: Double
    private let onChange: @Sendable (PublishStatus) -> Void
    private let current: Mutex<PublishStatus>
    private let interruption = Interruption()
    private let stopping = Atomic<Bool>(false)
    /// Set by `start`; read on the publish and processing threads after.
    nonisolated(unsafe) private var input: (any WriterInput)?
    /// Set by `share` before `start`.
    nonisolated(unsafe) private var sharedEncode: (any SharedEncode)?
    /// Set by `publishSound` before `start`.
    nonisolated(unsafe) private var sound: SoundTrack?

    /// Frames of `width × height` at about `frameRate`.
    public init(target: PublishTarget, width: Int, height: Int, frameRate: Double?, options: PublisherOptions = .init(),
                onChange: @escaping @Sendable (PublishStatus) -> Void = { _ in }) {
        self.target = target
        self.options = options
        self.width = width
        self.height = height
        self.frameRate = frameRate ?? 30
        self.onChange = onChange
        current = Mutex(PublishStatus(target: target.description))
    }

    deinit { stop() }

    /// Makes the stream `encode`'s access units instead of encoding frames here. Before `start`.
    public func share(_ encode: any SharedEncode) {
        sharedEncode = encode
    }

    /// The stream has an AAC track (what media servers expect): `pipeline`'s sound, silence while
    /// the source has none — one layout for the whole stream, whatever plays. Before `start`.
    public func publishSound(from pipeline: AudioPipeline) {
        sound = SoundTrack(of: pipeline, frameRate: frameRate)
    }

    /// Whether the stream is a shared encode's (``share(_:)``), so takes no frames.
    public var isSharing: Bool { sharedEncode != nil }

    /// Access units waiting for a slow server, beyond which they are dropped up to the next keyframe.
    static let sharedQueueCapacity = 60

    /// Starts the publish thread, which connects at once. Call once.
    public func start() {
        let input: any WriterInput = if let sharedEncode {
            SharedEncodeInput(sharedEncode, frameRate: frameRate, capacity: Self.sharedQueueCapacity, sound: sound,
                              droppedTotal: counters.dropped) { [self] in isStopping }
        } else {
            EncodingPublishInput(width: width, height: height, frameRate: frameRate, options: options, sound: sound,
                                 droppedTotal: counters.dropped)
        }
        self.input = input
        sound?.attach()
        input.start { [self] in run(input) }
    }

    /// Processing thread: queues a copy of `frame` (an encoding stream's). Returns at once.
    public func publish(_ frame: Frame) {
        (input as? EncodingPublishInput)?.offer(frame)
    }

    /// Ends the stream within about a second: the connection is closed, a pending connect or
    /// write is interrupted. Waits for the publish thread.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        interruption.arm(for: Self.stopGrace)
        input?.finish()
    }

    public var status: PublishStatus { current.withLock { $0 } }

    /// How long stopping may wait for the server (the stream's trailer, a pending write).
    private static let stopGrace: Duration = .seconds(1)

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// The publish thread: connect, stream, and on a failure wait and connect again, until stopped.
    private func run(_ input: any WriterInput) {
        var retry = options.retry
        while !isStopping {
            change { $0.connection = .connecting; $0.retryAt = nil }
            var writer: VideoWriter?
            do throws(MediaError) {
                writer = try bounded(options.connectTimeout) { () throws(MediaError) in
                    try input.connect(destination(), interruption: interruption)
                }
            } catch {
                fail(error, &retry, input)
                continue
            }
            let encoder = writer?.encoderName
            change { $0.connection = .connected; $0.encoder = encoder }
            counters.connected.set(true)
            let failure = writer.flatMap { stream(to: $0, input, &retry) }
            counters.connected.set(false)
            // The trailer ends the stream (RTSP: TEARDOWN, and its sockets close) — bounded, for
            // the server may be gone — and the writer is freed inside the same bound.
            _ = try? bounded(Self.stopGrace) { () throws(MediaError) in
                defer { writer = nil }
                try writer?.finish()
            }
            guard let failure else { break }
            fail(failure, &retry, input)
        }
        input.close()
        sound?.detach()
        change { $0.connection = .stopped; $0.retryAt = nil }
    }

    /// Where the stream goes. Every packet goes out as soon as it is muxed: a small one (a
    /// repeated paused frame) would otherwise wait in the 32 KB I/O buffer for seconds.
    private func destination() -> VideoWriter.Destination {
        var destination = VideoWriter.Destination(url: target.url, format: target.format,
                                                  muxerOptions: [("flush_packets", "1")],
                                                  failure: { [target] in .publishFailed(target: target.description, reason: $0) })
        switch target.format {
        // Interleaved in the RTSP connection: a server that goes away breaks the next write
        // (over UDP, packets would vanish unnoticed).
        case "rtsp": destination.muxerOptions.append(("rtsp_transport", "tcp"))
        // One write per SRT packet: 7 transport-stream packets.
        case "mpegts": destination.ioOptions = [("payload_size", "1316")]
        default: break
        }
        return destination
    }

    /// Writes until stopped (nil) or a write fails (the error). Without new pictures (a paused
    /// session) the input keeps the stream alive every second, so that the server does not drop
    /// it as idle (MediaMTX's read timeout is 10 s) and late viewers get a picture.
    private func stream(to writer: VideoWriter, _ input: any WriterInput, _ retry: inout RetryPolicy) -> MediaError? {
        var counted: Int64 = 0
        while !isStopping {
            do throws(MediaError) {
                let wrote = try bounded(options.writeTimeout) { () throws(MediaError) in
                    try input.writeNext(to: writer, keepAlive: Self.keepAliveInterval)
                }
                guard wrote else { continue }
            } catch {
                return error
            }
            let bytes = writer.bytesWritten
            counters.bytes.increment(by: UInt64(max(0, bytes - counted)))
            counted = bytes
            counters.frames.increment()
            // The server took a frame: the next failure waits the shortest delay again.
            retry.reset()
        }
        return nil
    }

    /// How often a stream without new frames repeats its last one.
    private static let keepAliveInterval: Duration = .seconds(1)

    /// Runs `body` with the interruption armed for `timeout` (or the stop grace, once stopping);
    /// a timeout's error says so.
    private func bounded<T>(_ timeout: Duration, _ body: () throws(MediaError) -> T) throws(MediaError) -> T {
        interruption.reset()
        interruption.arm(for: isStopping ? Self.stopGrace : timeout)
        // stop() may have armed its grace just before the line above: keep the shorter deadline.
        if isStopping { interruption.arm(for: Self.stopGrace) }
        defer { interruption.disarm() }
        do {
            return try body()
        } catch where interruption.hasTimedOut && !isStopping {
            throw .publishFailed(target: target.description,
                                 reason: "the server did not answer within \(Int(timeout.seconds)) s")
        }
    }

    /// Counts a failure, reports it, and waits the retry delay (the input lets the pictures
    /// meanwhile go, but the newest: the first of the next connection if the session is paused).
    private func fail(_ error: MediaError, _ retry: inout RetryPolicy, _ input: any WriterInput) {
        guard !isStopping else { return }
        counters.failures.increment()
        let delay = retry.nextDelay()
        let retryAt = ContinuousClock.now + delay
        // The status names the target already: its reason is the failure alone.
        let reason = if case .publishFailed(_, let reason) = error { reason } else { error.description }
        change { $0.connection = .retrying; $0.reason = reason; $0.retryAt = retryAt }
        input.idle(until: retryAt) { isStopping }
    }

    private func change(_ update: (inout PublishStatus) -> Void) {
        let status = current.withLock { status in
            update(&status)
            return status
        }
        onChange(status)
    }
}
