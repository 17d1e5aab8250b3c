import Synchronization

/// Where a live encoder stands: the frames offered to it, and those settled — encoded, their
/// access unit handed on, or displaced by a newer frame before it was taken. Both only grow; once
/// `settled` reaches the `offered` of a moment, every frame offered by then has its unit out (or
/// never will have one).
public struct EncoderProgress: Sendable, Equatable {
    public var offered: Int
    public var settled: Int
}

/// The counts behind ``EncoderProgress``: `offered` on the thread that offers, `encoded` on the
/// encoder's thread once a fresh frame's unit is handed on (released, so that whoever reads it
/// sees the unit where it was handed).
final class EncoderProgressCounts: Sendable {
    let offered = Atomic<Int>(0)
    let encoded = Atomic<Int>(0)

    /// `displaced`: the frames the feed dropped for newer ones. Read settled first, then offered:
    /// a frame offered meanwhile only makes the figure more cautious.
    func progress(displaced: Int) -> EncoderProgress {
        let settled = encoded.load(ordering: .acquiring) + displaced
        return EncoderProgress(offered: offered.load(ordering: .acquiring), settled: settled)
    }
}
