import CFFmpeg
import Foundation

/// The sound of a shared camera: the sharer's Opus packets (its microphone, encoded in the page),
/// handed to the ``AudioPacketQueue`` the player routes its source's sound to — the same queue and
/// audio thread as a demuxed stream's, so the ``AudioPipeline`` decodes them with libavcodec as
/// it does any codec. Their times are the capture times in µs, the pictures' clock.
///
/// Each packet is copied into a buffer of an `AVBufferPool` of ``bufferBytes`` (the pool reuses
/// the buffers the audio thread gives back, so the steady state allocates nothing); the queue's
/// pool bounds how many wait. A browser's packets are untrusted: the caller keeps them within
/// `IngestSound.maximumPacketBytes`, and a larger one is dropped here too.
///
/// The camera's pictures can wait for their sound (``waitForSound(capturedAt:until:)``) while
/// pages play it: the microphone's packets come later than the pictures of the same moment (the
/// page gathers 20 ms of sound into a packet and its encoder looks ahead), and a page plays a
/// packet that comes after its picture late.
///
/// Threads: `offer` from the sharer's (transport) thread, `route` and `waitForSound` from the
/// thread that reads the source; all under one lock.
public final class BrowserAudio: @unchecked Sendable {
    /// The largest packet taken, the decoder's padding aside.
    public static let maximumPacketBytes = 4000
    static let bufferBytes = maximumPacketBytes + Int(AV_INPUT_BUFFER_PADDING_SIZE)
    let parameters: AudioStreamParameters
    private let buffers: OpaquePointer
    private struct Route {
        var queue: AudioPacketQueue?
        /// Whether the queue has been told this stream starts (false: the next packet restarts it).
        var started = false
        /// The capture time of the latest packet queued (while the queue wanted sound), and when it came.
        var latest = Int64.min
        var latestArrival: ContinuousClock.Instant?
        /// Counts ``hurry()``: a wait ends when it changes.
        var hurried = 0
    }
    /// A microphone silent this long (its track ended, the page skips its sound) is not waited for.
    static let quietAfter = Duration.milliseconds(500)
    // Guarded by `condition`, which a waiting reader waits on.
    private let condition = NSCondition()
    private var route = Route()
    /// Reading threads waiting in ``waitForSound(capturedAt:until:)`` now.
    private var soundWaiters = 0
    /// Lent to the queue for one `put` (it moves the contents out), under the lock.
    private let scratch: UnsafeMutablePointer<AVPacket>

    /// Nil when out of memory.
    public init?(channels: Int, rate: Int) {
        guard let parameters = AudioStreamParameters(opusChannels: channels, rate: rate),
              let buffers = av_buffer_pool_init(Self.bufferBytes, nil) else { return nil }
        self.parameters = parameters
        self.buffers = buffers
        scratch = av_packet_alloc()
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = scratch
        av_packet_free(&packet)
        // Buffers still queued are freed when they come back.
        var pool: OpaquePointer? = buffers
        av_buffer_pool_uninit(&pool)
    }

    public var info: AudioStreamInfo { parameters.info }

    /// The packets go to `queue` from now on (nil: nowhere — the sharing ended).
    func route(to queue: AudioPacketQueue?) {
        condition.withLock {
            route = Route(queue: queue)
            condition.broadcast()
        }
    }

    /// The reading thread: while pages play the sound, waits until a packet captured at `time`
    /// (µs) or later has come, but not past `deadline` nor a ``hurry()``; at once when no page
    /// plays it, nothing is routed, or no packet came for ``quietAfter``.
    func waitForSound(capturedAt time: Int64, until deadline: ContinuousClock.Instant) {
        condition.lock()
        defer { condition.unlock() }
        let hurried = route.hurried
        soundWaiters += 1
        condition.broadcast()
        defer { soundWaiters -= 1 }
        while route.latest < time, route.hurried == hurried, isSounding {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return }
            // Waits on the wall clock, a slice at a time: a clock set back cannot stretch it.
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(remaining.seconds, 0.05)))
        }
    }

    /// Any thread: waits until a reading thread is in ``waitForSound(capturedAt:until:)``, at most
    /// `timeout`; whether one is. For whoever must act while a picture waits for its sound (tests).
    func waitForSoundWaiter(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while soundWaiters == 0 {
            guard condition.wait(until: deadline) else { return soundWaiters > 0 }
        }
        return true
    }

    /// Any thread: the pictures back up behind a wait — it ends now.
    func hurry() {
        condition.withLock {
            route.hurried &+= 1
            condition.broadcast()
        }
    }

    /// Pages play the sound, and the microphone sends it. Under the lock.
    private var isSounding: Bool {
        guard route.queue?.isHeard == true, let arrival = route.latestArrival else { return false }
        return arrival.duration(to: .now) < Self.quietAfter
    }

    /// Queues a copy of one Opus packet captured at `captureTime` (µs), while somebody listens;
    /// dropped when nobody does, the queue is full or the packet is too large.
    public func offer(_ packet: UnsafeRawBufferPointer, captureTime: Int64) {
        guard packet.count > 0, packet.count <= Self.maximumPacketBytes, let base = packet.baseAddress else { return }
        condition.withLock {
            guard let queue = route.queue, queue.isWanted else {
                route.started = false
                return
            }
            route.latest = max(route.latest, captureTime)
            route.latestArrival = .now
            condition.broadcast()
            guard let buffer = av_buffer_pool_get(buffers) else { return }
            if !route.started {
                queue.restart(parameters, at: nil)
                route.started = true
            }
            let data = buffer.pointee.data!
            data.update(from: base.assumingMemoryBound(to: UInt8.self), count: packet.count)
            (data + packet.count).initialize(repeating: 0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE))
            scratch.pointee.buf = buffer
            scratch.pointee.data = data
            scratch.pointee.size = Int32(packet.count)
            scratch.pointee.pts = captureTime
            scratch.pointee.dts = captureTime
            queue.put(movingFrom: scratch)
            // Not taken (the queue is full): the buffer goes back to the pool.
            av_packet_unref(scratch)
        }
    }
}
