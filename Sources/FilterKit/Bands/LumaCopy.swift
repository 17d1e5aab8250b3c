/// The original luma for neighbourhood filters (gradients, sharpening), whose output rows read
/// the input rows around them: as ``PassFilter``s they take two passes by bands of rows, the
/// first copying each band here, the second computing each band from the copy.
final class LumaCopy {
    private var copy: Frame?

    init() {}

    /// The copied luma (after ``prepare(for:)``).
    var plane: Plane { copy!.y }

    /// The passes of such a filter: the copy, then the computation.
    static let passes = 2

    /// Makes room for `frame`'s size (allocates only when it changes).
    func prepare(for frame: Frame) {
        if copy?.width != frame.width || copy?.height != frame.height {
            copy = Frame(width: frame.width, height: frame.height)
        }
    }

    /// Runs the copy (pass 0) of part `part`'s band; in the next pass, returns the band of luma
    /// rows (starting on an even row) that the part computes. Nil when there is nothing left to
    /// do in this pass.
    func rowsToCompute(pass: Int, part: Int, of parts: Int, in frame: Frame) -> Range<Int>? {
        let rows = Partition.rows(part, of: parts, height: frame.height)
        guard !rows.isEmpty else { return nil }
        guard pass > 0 else {
            plane.rows(rows).copy(from: frame.y.rows(rows))
            return nil
        }
        return rows
    }
}
