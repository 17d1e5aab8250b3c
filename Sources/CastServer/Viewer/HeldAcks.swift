import CastProtocol
import MediaKit

/// The `ack`s a viewer is owed for commands answered only once their frame is out (`step`,
/// `seek`: the client learns the picture it asked for is there, not only that it was asked): each
/// waits for the player's jump ticket it was given (``Player/lastJump``) to be out
/// (``Player/jumpsOut``) and shown — an H.264 viewer's encoder, which works on a thread of its own,
/// past the frames offered to it by then, and no newer picture waiting for the viewer —, or for
/// ``patience`` — a frame that never comes (a failed source) must
/// not leave the client waiting. At most ``capacity`` wait (the command budget bounds them long
/// before): past it the oldest is answered at once. Pure; the network thread's.
struct HeldAcks {
    static let capacity = 64
    /// How long an ack waits for its frame at most.
    static let patience = Duration.seconds(3)

    private struct Held {
        let id: MessageID
        /// Nil until the session told which jump it waits for.
        var ticket: Int?
        /// The frames offered to the viewer's encoder when the jump was seen out (0 without one):
        /// the jump's unit is out once that many are settled.
        var encoderTarget: Int?
        let since: ContinuousClock.Instant
    }

    private var held: [Held] = []

    var isEmpty: Bool { held.isEmpty }

    /// Holds the ack of command `id` (asked at `now`) until ``waitFor(ticket:)`` and its frame;
    /// returns the id of one that has to go at once to make room, if any.
    mutating func hold(_ id: MessageID, now: ContinuousClock.Instant) -> MessageID? {
        held.append(Held(id: id, ticket: nil, encoderTarget: nil, since: now))
        return held.count > Self.capacity ? held.removeFirst().id : nil
    }

    /// The acks held without a ticket wait for jump `ticket` to be out.
    mutating func waitFor(ticket: Int) {
        for index in held.indices where held[index].ticket == nil { held[index].ticket = ticket }
    }

    /// Takes, in order, the acks whose jump is out (`jumpsOut`: the newest jump out) and shown —
    /// `encoder` (nil: the viewer's pictures need no encoder thread) past the frames offered when
    /// the jump was first seen out, and no `pictureWaiting` for the viewer — or that waited
    /// `patience`.
    mutating func release(jumpsOut: Int, encoder: EncoderProgress? = nil, pictureWaiting: Bool = false,
                          now: ContinuousClock.Instant) -> [MessageID] {
        guard !held.isEmpty else { return [] }
        for index in held.indices where held[index].encoderTarget == nil && (held[index].ticket.map { $0 <= jumpsOut } ?? false) {
            held[index].encoderTarget = encoder?.offered ?? 0
        }
        let settled = encoder?.settled ?? .max
        var released: [MessageID] = []
        held.removeAll { entry in
            let shown = !pictureWaiting && entry.encoderTarget.map { $0 <= settled } ?? false
            let due = shown || entry.since.duration(to: now) >= Self.patience
            if due { released.append(entry.id) }
            return due
        }
        return released
    }
}
