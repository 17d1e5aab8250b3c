/// What the viewers' outputs hold at this moment, read by the service thread before it asks the
/// viewers' sessions what to write: the newest JPEG frame and where each H.264 rendition's log
/// stands (by the rendition's index in the offer).
struct FrameSupply: Equatable {
    /// The newest JPEG frame's sequence (0: none yet).
    var jpeg: UInt64 = 0
    var units: [Int: AccessUnitLog.Position] = [:]
    var now: ContinuousClock.Instant = .now
}
