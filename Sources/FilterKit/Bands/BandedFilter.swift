/// A filter that may read anywhere in its input but writes each output row on its own: after
/// ``prepare(_:)`` has kept what the rows read (a copy of the source, tables for the frame size),
/// ``apply(to:rows:)`` computes any set of rows, and calls for disjoint rows may run on several
/// threads at once. A ``BandScheduler`` uses this to split the frame into bands.
public protocol BandedFilter: FrameFilter {
    /// Readies `frame` for ``apply(to:rows:)``; called on one thread before the bands.
    func prepare(_ frame: Frame)

    /// Computes luma rows `rows` (starting on an even row) and the chroma rows under them.
    /// Touches no state but those rows and what `prepare` made.
    func apply(to frame: Frame, rows: Range<Int>)
}

extension BandedFilter {
    public func apply(to frame: Frame) {
        prepare(frame)
        apply(to: frame, rows: 0..<frame.height)
    }
}
