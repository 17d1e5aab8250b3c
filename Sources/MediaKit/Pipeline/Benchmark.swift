import FilterKit
import Foundation
import Synchronization

/// Decodes, filters and encodes as fast as possible (or at the source's rate: ``paced``) and
/// reports throughput and the time spent in each stage — the engine of `filtercast bench`.
///
/// With one thread every stage runs in turn on the calling thread. With N ≥ 2, decoding runs on
/// its own thread ahead of conversion + filter + encode (blocking hand-offs, so no frame is
/// skipped), which balances the two stages; FFmpeg's decoder gets N − 1 threads, and filters that
/// can split a frame into bands use N − 1 bands: the decode thread keeps a core busy, so bands
/// beyond the remaining cores only wait for each other (on 2 cores, `--threads 2` does not band).
public struct Benchmark: Sendable {
    public var input: InputSpec
    public var filter: FilterChain = .none
    /// The filters `filter` was checked against.
    public var catalog: FilterCatalog = .standard
    /// Stop after this many frames; nil = until the end of a file (live sources need a count).
    public var frameLimit: Int?
    public var threads: Int = 1
    public var quality: Int = 80
    /// Whether to measure how much consecutive frames change before and after the filter
    /// (``Result/flicker``; outside the stages' times).
    public var measuresFlicker = false
    /// Frames at the source's rate (25 fps where it declares none), as `serve` plays them (a filter
    /// that works beside the picture lags as it would there), rather than as fast as possible.
    public var paced = false
    /// Called with every filtered frame before its encode, outside the stages' times.
    public var inspect: (@Sendable (Frame) -> Void)?

    public init(input: InputSpec) {
        self.input = input
    }

    public struct Result: Sendable, Codable {
        public var input: String
        public var filter: String
        public var width: Int
        public var height: Int
        public var threads: Int
        public var frames: Int
        public var seconds: Double
        public var fps: Double
        /// Mean milliseconds per frame spent in each stage (each on its own thread when pipelined);
        /// decoding includes the conversion to the frame format.
        public var decodeMs: Double
        public var filterMs: Double
        public var encodeMs: Double
        public var bytesPerFrame: Double
        /// With ``Benchmark/measuresFlicker``: the frame-to-frame change of the source and of the
        /// filtered frames.
        public var flicker: Flicker?
    }

    /// The mean absolute luma difference of consecutive frames (``FlickerMeter``) before and after
    /// the filter, and their ratio (filtered / source; 1 where the source never changed).
    public struct Flicker: Sendable, Codable {
        public var source: Double
        public var filtered: Double
        public var ratio: Double
        public var pairs: Int
    }

    /// What the stages measured.
    private struct Totals {
        var width = 0, height = 0
        var frames = 0
        var decode: Duration = .zero
        var filter: Duration = .zero
        var encode: Duration = .zero
        var bytes = 0
        /// The source's and the filtered frames' change, when measured.
        var meters: (source: FlickerMeter, filtered: FlickerMeter)?
        /// When each frame is due, when paced: the first frame's time and the source's interval.
        var pace: (start: ContinuousClock.Instant?, interval: Duration)?
        var inspect: (@Sendable (Frame) -> Void)?

        /// What `meters` measured.
        var flicker: Flicker? {
            meters.map { source, filtered in
                Flicker(source: source.meanDifference, filtered: filtered.meanDifference,
                        ratio: source.meanDifference > 0 ? filtered.meanDifference / source.meanDifference : 1,
                        pairs: source.pairs)
            }
        }

        /// Filters and encodes `frame`, counting it with its times (`decodeTime`: its decoding,
        /// or its conversion when decoding runs on a thread of its own).
        mutating func filterAndEncode(_ frame: Frame, decoded decodeTime: Duration, runner: FilterRunner,
                                      encoder: JPEGEncoder, clock: ContinuousClock) throws {
            waitUntilDue(clock)
            meters?.source.measure(frame)
            let t1 = clock.now
            runner.apply(to: frame)
            let t2 = clock.now
            inspect?(frame)
            bytes += try encoder.encode(frame) { $0.count }
            let t3 = clock.now
            meters?.filtered.measure(frame)
            decode += decodeTime
            filter += t2 - t1
            encode += t3 - t2
            frames += 1
        }

        /// Sleeps until this frame's time when paced, the first frame setting the start.
        private mutating func waitUntilDue(_ clock: ContinuousClock) {
            guard let (start, interval) = pace else { return }
            guard let start else {
                pace = (clock.now, interval)
                return
            }
            let early = clock.now.duration(to: start + interval * frames)
            if early > .zero { Thread.sleep(forTimeInterval: early.seconds) }
        }
    }

    public func run(warning: @escaping @Sendable (String) -> Void = { _ in }) throws -> Result {
        if input.isLive && frameLimit == nil {
            throw MediaError.invalidInput("\(input) never ends: give a frame count")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let totals = threads <= 1 ? try runSequential(clock, warning) : try runPipelined(clock, warning)
        let seconds = start.duration(to: clock.now).seconds
        let count = Double(max(totals.frames, 1))
        func milliseconds(_ duration: Duration) -> Double { duration.seconds * 1000 / count }
        return Result(
            input: input.description, filter: filter.description, width: totals.width, height: totals.height,
            threads: max(1, threads), frames: totals.frames, seconds: seconds,
            fps: Double(totals.frames) / max(seconds, 1e-9), decodeMs: milliseconds(totals.decode),
            filterMs: milliseconds(totals.filter), encodeMs: milliseconds(totals.encode),
            bytesPerFrame: Double(totals.bytes) / count, flicker: totals.flicker)
    }

    /// What `Totals` needs of the options for frames from `source`.
    private func totals(for source: any VideoSource) -> Totals {
        let rate = source.info.frameRate ?? 25
        return Totals(width: source.info.width, height: source.info.height, meters: meters,
                      pace: paced ? (nil, .seconds(1 / rate)) : nil, inspect: inspect)
    }

    /// Fresh meters when measuring flicker.
    private var meters: (source: FlickerMeter, filtered: FlickerMeter)? {
        measuresFlicker ? (FlickerMeter(), FlickerMeter()) : nil
    }

    private func open(decoderThreads: Int, _ warning: @escaping @Sendable (String) -> Void) throws -> any VideoSource {
        let source = try input.open(SourceOptions(decoderThreads: decoderThreads))
        source.onWarning = { warning($0) }
        return source
    }

    private func runSequential(_ clock: ContinuousClock, _ warning: @escaping @Sendable (String) -> Void) throws -> Totals {
        let source = try open(decoderThreads: 1, warning)
        let frame = Frame(width: source.info.width, height: source.info.height)
        let runner = FilterRunner(selection: FilterSelection(filter), catalog: catalog)
        let encoder = try JPEGEncoder(width: frame.width, height: frame.height, quality: quality)
        var totals = totals(for: source)
        while totals.frames < (frameLimit ?? .max) {
            let t0 = clock.now
            guard try source.read(into: frame) else { break }
            try totals.filterAndEncode(frame, decoded: t0.duration(to: clock.now), runner: runner, encoder: encoder, clock: clock)
        }
        return totals
    }

    /// Decoding alone on its own thread; conversion, filter and encode on the calling thread.
    /// Decoded pictures go round between two queues — filled ones forward, released ones back —
    /// so the steady state allocates nothing and neither side can run more than
    /// `picturesInFlight` ahead.
    private func runPipelined(_ clock: ContinuousClock, _ warning: @escaping @Sendable (String) -> Void) throws -> Totals {
        // The source moves to the decode thread and is used only there from now on.
        let source = try open(decoderThreads: threads - 1, warning)
        var totals = totals(for: source)
        let picturesInFlight = 3
        let decoded = HandoffQueue<DecodedPicture>(capacity: picturesInFlight, policy: .blocking)
        let released = HandoffQueue<DecodedPicture>(capacity: picturesInFlight, policy: .blocking)
        for _ in 0..<picturesInFlight { released.put(DecodedPicture()) }
        let decodeOutcome = DecodeOutcome()
        let decodeThread = startDecoding(source, from: released, to: decoded, outcome: decodeOutcome, clock)

        let frame = Frame(width: totals.width, height: totals.height)
        let converter = FrameConverter(width: totals.width, height: totals.height)
        let runner = FilterRunner(selection: FilterSelection(filter), catalog: catalog, threads: threads - 1)
        do {
            let encoder = try JPEGEncoder(width: totals.width, height: totals.height, quality: quality)
            while let picture = decoded.take() {
                let t0 = clock.now
                converter.convert(picture, into: frame)
                picture.release()
                released.put(picture)
                try totals.filterAndEncode(frame, decoded: t0.duration(to: clock.now), runner: runner,
                                           encoder: encoder, clock: clock)
            }
        } catch {
            released.close()
            decoded.close()
            decodeThread.join()
            throw error
        }
        released.close()
        decodeThread.join()
        let outcome = decodeOutcome.value.withLock { $0 }
        if let error = outcome.error { throw error }
        totals.decode += outcome.time
        return totals
    }

    /// The decode thread of `runPipelined`: reads `source` into the pictures `released` gives
    /// back and puts them in `decoded` (closed at the end), until the frame limit; its decoding
    /// time and error go to `outcome`.
    private func startDecoding(_ source: any VideoSource, from released: HandoffQueue<DecodedPicture>,
                               to decoded: HandoffQueue<DecodedPicture>,
                               outcome: DecodeOutcome, _ clock: ContinuousClock) -> WorkerThread {
        // Used only on the decode thread from now on.
        nonisolated(unsafe) let source = source
        let limit = frameLimit ?? .max
        return WorkerThread(name: "bench-decode") {
            var count = 0
            var time: Duration = .zero
            do throws(MediaError) {
                while count < limit, let picture = released.take() {
                    let t0 = clock.now
                    guard try source.read(into: picture) else { break }
                    time += t0.duration(to: clock.now)
                    count += 1
                    decoded.put(picture)
                }
            } catch {
                outcome.value.withLock { $0.error = error }
            }
            outcome.value.withLock { $0.time = time }
            decoded.close()
        }
    }
}

/// What the decode thread of a pipelined benchmark measured: read once the thread has ended.
private final class DecodeOutcome: Sendable {
    let value = Mutex<(time: Duration, error: MediaError?)>((.zero, nil))
}
