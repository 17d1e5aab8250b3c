import MediaKit

/// What the viewers' outputs hold at this moment, read by the service thread before it asks the
/// viewers' sessions what to write: the newest frame of each JPEG rendition and where each H.264
/// rendition's log stands (each by the rendition's index in the offer), and the sound's log.
package struct FrameSupply: Equatable {
    /// The newest frame's sequence of each JPEG rendition (0: none yet).
    package var jpeg: [Int: UInt64] = [:]
    var units: [Int: AccessUnitLog.Position] = [:]
    /// Where the sound's log stands; nil when the server sends no sound.
    var audio: AccessUnitLog.Position?
    /// Where each H.264 rendition's encoder stands, read before the logs (a unit it counts settled
    /// is in its log): a `step`'s or `seek`'s ack waits for its frame's unit (``HeldAcks``). Only
    /// in a supply taken for held acks; empty otherwise.
    var encoders: [Int: EncoderProgress] = [:]
    var now: ContinuousClock.Instant = .now
}
