import CastProtocol
import MediaKit
import Synchronization

/// The access units of one H.264 rendition that viewers may still be sent, in decoding order and
/// numbered consecutively from 1: every unit from the second-newest keyframe on, at most
/// `maximumUnits`. Unlike JPEG frames, units cannot be skipped (each depends on the one before)
/// except by starting again at a keyframe, so each viewer walks the log at its own pace
/// (``UnitCursor``). The sound's Opus packets are held the same way (``ViewerAudio``): none is a
/// keyframe, so the log is a ring of the newest `maximumUnits`.
///
/// Threads: the encoder thread appends; the service thread borrows a unit for the length of a
/// write and gives it back. A unit is refilled only once it is out of the log and not borrowed,
/// so a unit is never changed while it is being sent; buffers are reused, not reallocated.
final class AccessUnitLog: Sendable {
    /// Where the log stands, for choosing a viewer's next unit.
    struct Position: Equatable, Sendable {
        /// The newest unit (0: none yet).
        var latest: UInt64 = 0
        /// The newest keyframe (0: none).
        var keyframe: UInt64 = 0
        /// When the newest keyframe was appended.
        var keyframeTime: ContinuousClock.Instant?
        /// The oldest unit still held.
        var oldest: UInt64 = 1
    }

    private struct State {
        var units: [EncodedFrame] = []
        var keyframes: [UInt64] = []
        var spare: [EncodedFrame] = []
        var borrowed: [ObjectIdentifier: Int] = [:]
        var position = Position()
    }

    private let state = Mutex(State())
    /// The rendition's index, for an H.264 rendition's units (nil: behind a 32-byte header).
    private let rendition: Int?
    private let magic: [UInt8]
    private let maximumUnits: Int
    /// Spare buffers kept for reuse, beyond which returned ones are freed.
    private static let maximumSpare = 8

    /// A log for the access units of the H.264 rendition at index `rendition` of the offer (nil:
    /// packets behind a 32-byte header with `magic`), holding at most `maximumUnits`.
    init(rendition: Int?, magic: [UInt8] = FrameHeader.magic, maximumUnits: Int) {
        self.rendition = rendition
        self.magic = magic
        self.maximumUnits = max(2, maximumUnits)
    }

    var position: Position { state.withLock { $0.position } }

    /// Encoder thread: copies `unit` into a buffer and appends it, its header saying its size;
    /// returns its sequence.
    @discardableResult
    func append(_ unit: EncodedAccessUnit) -> UInt64 {
        append(unit.bytes, time: unit.time, isKeyframe: unit.isKeyframe, isChanged: unit.isChanged,
               size: (unit.width, unit.height))
    }

    /// Encoder thread: copies `bytes` (a unit or packet of `time` seconds; a picture of `size`,
    /// for an H.264 rendition's log) into a buffer and appends it; returns its sequence.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer, time: Double, isKeyframe: Bool, isChanged: Bool,
                size: (width: Int, height: Int) = (0, 0)) -> UInt64 {
        let picture = rendition.map { EncodedFrame.Picture(width: size.width, height: size.height, rendition: $0) }
        let buffer = state.withLock { $0.spare.popLast() }
            ?? EncodedFrame(maximumBodySize: bytes.count, picture: picture, magic: magic)
        buffer.picture = picture
        buffer.reserve(bodySize: bytes.count)
        if let source = bytes.baseAddress { buffer.bodyDestination.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        buffer.bodyCount = bytes.count
        var flags: FrameHeader.Flags = isChanged ? .stateChanged : []
        if isKeyframe { flags.insert(AccessUnitHeader.keyframe) }
        return state.withLock { state in
            let sequence = state.position.latest + 1
            buffer.setHeader(FrameHeader(flags: flags, sequence: sequence,
                                         presentationTime: Int64((time * 1e6).rounded()), sendTime: 0))
            state.units.append(buffer)
            state.position.latest = sequence
            if isKeyframe {
                state.keyframes.append(sequence)
                state.position.keyframe = sequence
                state.position.keyframeTime = .now
            }
            trim(&state)
            return sequence
        }
    }

    /// Drops the units before the second-newest keyframe, and the oldest beyond `maximumUnits`.
    private func trim(_ state: inout State) {
        let keepFrom = state.keyframes.count >= 2 ? state.keyframes[state.keyframes.count - 2] : state.position.oldest
        while let first = state.units.first,
              first.header.sequence < keepFrom || state.units.count > maximumUnits {
            state.units.removeFirst()
            if state.borrowed[ObjectIdentifier(first)] == nil { recycle(first, &state) }
        }
        state.keyframes.removeAll { $0 < (state.units.first?.header.sequence ?? 0) }
        state.position.oldest = state.units.first?.header.sequence ?? state.position.latest + 1
    }

    private func recycle(_ buffer: EncodedFrame, _ state: inout State) {
        if state.spare.count < Self.maximumSpare { state.spare.append(buffer) }
    }

    /// Unit `sequence`, borrowed until ``giveBack(_:)``; nil when it is not (or no longer) held.
    func borrow(_ sequence: UInt64) -> EncodedFrame? {
        state.withLock { state in
            guard sequence >= state.position.oldest, sequence <= state.position.latest else { return nil }
            let unit = state.units[Int(sequence - state.position.oldest)]
            state.borrowed[ObjectIdentifier(unit), default: 0] += 1
            return unit
        }
    }

    func giveBack(_ unit: EncodedFrame) {
        state.withLock { state in
            let key = ObjectIdentifier(unit)
            if let count = state.borrowed[key], count > 1 { return state.borrowed[key] = count - 1 }
            state.borrowed[key] = nil
            if unit.header.sequence < state.position.oldest { recycle(unit, &state) }
        }
    }

    /// Units held now (for tests and metrics).
    var count: Int { state.withLock { $0.units.count } }
}
