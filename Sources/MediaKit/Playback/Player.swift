import FilterKit
import Logging
import Foundation
import Synchronization
import Telemetry

/// Plays a source in real time on its own decode thread: paces frames by their timestamps,
/// pauses, seeks frame-accurately, loops or stops at the end, and hands each frame to `output`.
///
/// Failures do not stop it. A live source given a `reopen` goes offline (`isOnline` false, with
/// the reason and the next attempt's time in ``playbackState``) and is opened again after the
/// delays of ``RetryPolicy`` until it delivers frames again. A file whose read fails mid-way is
/// skipped one second past the failure. A file found deleted, replaced or truncated (checked at
/// the end, on a seek and after a read error) stops playback with the error and goes offline
/// (`isOnline` false, the error as the reason) until another source is switched to.
///
/// A file that nobody watches is not decoded (see ``setConsumersPresent(_:)``): its clock runs
/// on, and when consumers come back the frame at the clock's position is delivered at once.
///
/// Control calls (`play`, `pause`, `seek`, `switchSource`, `stop`) are safe from any thread and
/// take effect at once: a seek while paused delivers the exact frame immediately, and a player
/// paused before its first frame (or before the first frame after a reconnection) still
/// delivers that one frame, as a native player shows its first picture. Frames go to
/// `output`, a latest-wins queue: whoever takes them recycles them into `pool` when done.
///
/// A live input that nothing takes frames from for ``PlaybackOptions/idleClose`` is closed, and
/// opened again when consumers come back (``PlaybackState/isIdle``).
///
/// Its parts: the commands here; the decode loop (`Player+DecodeLoop.swift`); source switches
/// (`Player+SourceSwitch.swift`); coasting while nobody watches (`Player+Idle.swift`); closing and
/// reopening a live input on demand (`Player+OnDemand.swift`); failures, reconnection and the end
/// of a file (`Player+Failures.swift`).
public final class Player: @unchecked Sendable {
    /// The frames of the source that plays come from it; with ``PlaybackOptions/sizeFollowsSource``
    /// a source of another size brings a pool of its own (frames of the old size recycled into
    /// the new one are simply released).
    public var pool: FramePool { currentPool.withLock { $0 } }
    private let currentPool: Mutex<FramePool>
    private let poolCapacity: Int
    let sizeFollowsSource: Bool
    /// Where decoded frames go; the consumer takes from it and recycles into `pool`.
    public let output: FrameQueue
    /// Frames the source gave (reads and seeks).
    public let framesDecoded = Counter()
    /// Frames pushed out of `output` by a newer one before the consumer took them.
    public let framesSuperseded = Counter()

    // Guarded by `condition`: commands in, state out. The decode thread waits on it.
    let condition = NSCondition()
    var state: PlaybackState
    var pendingSeek: Double?
    /// The seek the decode thread took and has not shown yet (the position is still the last frame's).
    var seekUnderWay: Double?
    /// Seeks asked for so far (``lastJump``), the count when the decode thread took the seek under
    /// way, and the frame that carried it out with that count, until it is out (``frameOut(_:)``).
    var jumpsAsked = 0
    var jumpTaken = 0
    var deliveredJump: (frame: ObjectIdentifier, ticket: Int)?
    /// The newest jump whose frame is out (``jumpsOut``).
    let jumpsOutCount = Atomic<Int>(0)
    var stopping = false
    var speedChanged = false
    /// Whether anything takes the frames (see `setConsumersPresent`).
    var consumersPresent = true
    /// Whether any of them keeps a live input open (a snapshot does not: see
    /// `setConsumersPresent(_:holdingLiveInput:)`).
    var liveInputHeld = true
    /// The decode thread let the clock run on without decoding: the decoder is behind
    /// `state.position`, and the next consumer gets the frame there from a seek.
    var coasting = false
    /// While coasting: the clock `position` follows between two looks of the decode thread.
    var coastClock: PlaybackClock<ContinuousClock>?
    /// When a live input nobody takes frames from closes (nil: kept open; see `Player+OnDemand`).
    var idleClose: IdleClose?
    var sourceInfo: SourceInfo
    /// A source waiting to replace the current one (see `switchSource`).
    var pendingSource: PendingSource?
    /// The current source's; a switch replaces it.
    var interruption: Interruption
    /// The sound of the source that plays now.
    var sourceAudio: AudioStreamInfo?
    /// The decode thread waits for a command with nothing to do (paused, ended, failed).
    var decodeThreadIdle = false

    private var thread: WorkerThread?
    /// Only the decode thread touches the source (and replaces it on reconnection) after `start()`.
    /// Nil only while a failed live source is being reopened (it is closed first: a UDP port,
    /// say, must be free to be bound again).
    nonisolated(unsafe) var source: (any VideoSource)? {
        didSet {
            source?.routeAudio(to: audioQueue)
            let audio = source?.info.audio
            update { _ in sourceAudio = audio }
        }
    }
    /// Where every source's sound goes (see ``VideoSource/routeAudio(to:)``); nil: nowhere.
    let audioQueue: AudioPacketQueue?
    /// Decode thread only: how to open the current source again when it is live and fails.
    nonisolated(unsafe) var reopen: SourceOpener?
    /// Decode thread only: the reconnection delays, reset by every frame delivered.
    nonisolated(unsafe) var retry = RetryPolicy()
    /// Decode thread only: when a live source went offline, until its next frame (to log its return).
    nonisolated(unsafe) var offlineSince: ContinuousClock.Instant?
    /// Decode thread only: where the warnings of an input closed on demand go when it reopens.
    nonisolated(unsafe) var idleWarn: ((String) -> Void)?
    let loops: Bool
    /// The speed it started at (`--speed`): what another source plays at.
    let startSpeed: Double
    /// What its lines carry (a channel's name), and its owner's lines about what it plays.
    public let log: LogScope

    /// Opens nothing: `source` was opened by the caller (errors surface there). Call `start()`.
    /// `reopen` opens a live source again after it fails: it must give frames of the same size
    /// and share the source's ``Interruption`` (see ``InputSpec/reopener(_:)``).
    /// The sound of every source it plays goes to `audio`, read with the pictures. Its log lines
    /// carry `log`'s fields.
    public init(source: any VideoSource, options: PlaybackOptions = PlaybackOptions(),
                output: FrameQueue = FrameQueue(capacity: 1, policy: .latestWins), reopen: SourceOpener? = nil,
                audio: AudioPacketQueue? = nil, log: LogScope = LogScope()) {
        self.source = source
        self.log = log
        audioQueue = audio
        sourceAudio = source.info.audio
        self.reopen = source.info.isLive ? reopen : nil
        sourceInfo = source.info
        interruption = source.interruption
        self.loops = options.loops
        startSpeed = options.speed
        idleClose = options.idleClose.map(IdleClose.init(after:))
        self.output = output
        poolCapacity = options.poolCapacity
        sizeFollowsSource = options.sizeFollowsSource
        currentPool = Mutex(FramePool(width: source.info.width, height: source.info.height, capacity: options.poolCapacity))
        state = PlaybackState(duration: source.info.duration, isLive: source.info.isLive, speed: options.speed)
    }

    /// Decode thread: frames of `info`'s size from now on (a new pool when the size changed).
    func takeSize(of info: SourceInfo) {
        currentPool.withLock { pool in
            guard pool.width != info.width || pool.height != info.height else { return }
            pool = FramePool(width: info.width, height: info.height, capacity: poolCapacity)
        }
    }

    /// Starts the decode thread.
    public func start() {
        precondition(thread == nil, "a player starts once")
        thread = WorkerThread(name: "decode") { [self] in run() }
    }

    /// The current source's.
    public var info: SourceInfo {
        condition.lock()
        defer { condition.unlock() }
        return sourceInfo
    }

    /// The sound of the source that plays now (nil: none, or none open: being opened, reconnecting).
    public var audio: AudioStreamInfo? {
        condition.lock()
        defer { condition.unlock() }
        return sourceAudio
    }

    /// Stops the decode thread and closes `output`, also when a read is blocked on a stalled
    /// stream. Idempotent.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        let interruption = interruption
        condition.unlock()
        interruption.interrupt()
        output.close()
        thread?.join()
        thread = nil
    }

    public var playbackState: PlaybackState {
        condition.lock()
        defer { condition.unlock() }
        return currentState
    }

    /// `state`, its position where the clock is now while coasting (the decode thread looks at
    /// the clock only at the end of the file and at commands). Under the lock.
    private var currentState: PlaybackState {
        guard coasting, let clock = coastClock, let duration = state.duration,
              let position = clock.mediaTime(at: clock.clock.now) else { return state }
        var current = state
        current.position = min(max(position, state.position), duration)
        return current
    }

    /// Waits until `condition` holds of the state (checked at every change, and every 20 ms while
    /// coasting: the position moves then without a change being announced), and with `idle`
    /// until the decode thread has also settled with nothing to do; that state, or nil when
    /// `timeout` passes first. For whoever must see a change happen (tests). Any thread.
    func waitForState(timeout: Duration, idle: Bool = false, until condition: (PlaybackState) -> Bool) -> PlaybackState? {
        let deadline = ContinuousClock.now + timeout
        self.condition.lock()
        defer { self.condition.unlock() }
        while !condition(currentState) || (idle && !decodeThreadIdle) {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            let wait = coasting ? min(remaining, .milliseconds(20)) : remaining
            _ = self.condition.wait(until: Date(timeIntervalSinceNow: wait.seconds))
        }
        return currentState
    }

    public func play() {
        update {
            if $0.hasEnded { $0.hasEnded = false; pendingSeek = 0 }
            $0.isPlaying = true
        }
    }

    public func pause() { update { $0.isPlaying = false } }

    public func setSpeed(_ speed: Double) throws(MediaError) {
        guard PlaybackOptions.speedRange.contains(speed) else {
            throw .invalidInput("speed must be in \(PlaybackOptions.speedRange.lowerBound)…\(PlaybackOptions.speedRange.upperBound), got \(speed)")
        }
        update { $0.speed = speed; speedChanged = true }
    }

    /// Seeks to `seconds` (finite and ≥ 0: whoever takes the position from outside checks it):
    /// the first frame at or after it; at or past the declared duration (a seek slider at its
    /// end), the last frame, wherever it really is (a file without an index declares the length it
    /// could read, which may end before its last frame). False, doing nothing, while the source is
    /// live (what plays may have become live since the caller looked).
    @discardableResult
    public func seek(to seconds: Double) -> Bool {
        precondition(seconds.isFinite && seconds >= 0, "a seek position is finite and ≥ 0, got \(seconds)")
        let info = info
        guard !info.isLive else { return false }
        let target = info.duration.map { seconds >= $0 ? max(seconds, $0 + Self.pastTheEnd) : seconds } ?? seconds
        update { $0.hasEnded = false; pendingSeek = target; jumpsAsked += 1 }
        return true
    }

    /// Where the playhead is going: a seek not yet carried out (asked for, or under way on the
    /// decode thread), else the position.
    public var playheadTarget: Double {
        condition.lock()
        defer { condition.unlock() }
        return pendingSeek ?? seekUnderWay ?? state.position
    }

    /// How far past the declared end a seek to the end aims: more than a file holds beyond it.
    static let pastTheEnd = 3600.0

    /// Changes the state under the lock and wakes the decode thread (and any waiter).
    func update(_ change: (inout PlaybackState) -> Void) {
        condition.lock()
        change(&state)
        condition.broadcast()
        condition.unlock()
    }
}
