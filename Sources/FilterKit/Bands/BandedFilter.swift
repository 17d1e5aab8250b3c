/// A filter that may read anywhere in its input but writes each output row on its own: after
/// ``prepare(_:)`` has kept what the rows read (a copy of the source, tables for the frame size),
/// ``apply(to:rows:)`` computes any set of rows, and calls for disjoint rows may run on several
/// threads at once. It is a ``PassFilter`` of one pass split into bands of rows.
public protocol BandedFilter: PassFilter {
    /// Readies `frame` for ``apply(to:rows:)``; called on one thread before the bands.
    func prepare(_ frame: Frame)

    /// Computes luma rows `rows` (starting on an even row) and the chroma rows under them.
    /// Touches no state but those rows and what `prepare` made.
    func apply(to frame: Frame, rows: Range<Int>)
}

extension BandedFilter {
    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        prepare(frame)
        return 1
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        apply(to: frame, rows: Partition.rows(part, of: parts, height: frame.height))
    }
}
