/// A filter whose work on a frame is a sequence of passes, each split into parts that may run on
/// several threads at once: a blur's horizontal pass by bands of rows, its vertical pass by bands
/// of columns, a neighbourhood filter's copy of the source and then its output rows. A
/// ``BandScheduler`` runs the parts of a pass together and the passes one after the other; on one
/// thread, `apply(to:)` runs every pass as one part.
///
/// Parts are numbered `0..<parts`; how a pass splits the frame among them is the filter's (see
/// ``Partition``). Some parts may get nothing to do (a narrow frame has fewer column bands).
public protocol PassFilter: FrameFilter {
    /// Readies the filter for `frame` split into `parts` parts per pass — tables for its size,
    /// scratch memory for each part — and returns how many passes it takes (0: the frame stays as
    /// it is). Called on one thread before the passes; allocates only when the size or the number
    /// of parts grows.
    func preparePasses(for frame: Frame, parts: Int) -> Int

    /// Runs part `part` of `parts` of pass `pass`, after every part of the passes before it.
    /// Parts of one pass touch disjoint memory (samples and scratch) and only read what earlier
    /// passes wrote, so they may run at once.
    func run(pass: Int, part: Int, of parts: Int, on frame: Frame)
}

extension PassFilter {
    public func apply(to frame: Frame) {
        for pass in 0..<preparePasses(for: frame, parts: 1) {
            run(pass: pass, part: 0, of: 1, on: frame)
        }
    }
}
