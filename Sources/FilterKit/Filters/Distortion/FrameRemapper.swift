/// Applies a ``DistortionMap`` to whole frames: the luma and the chroma ``RemapTable`` are built
/// on the first frame and again only when the frame size changes; each frame, the source region
/// of every plane is copied aside and then the changed rows are resampled from the copies.
///
/// Apart from the tables and the copies (both sized by the frame), nothing is allocated per
/// frame. Once ``prepare(_:)`` ran, ``remap(band:of:)`` over bands of luma rows that cover the
/// frame may run on several threads at once: bands are independent.
final class FrameRemapper<Map: DistortionMap> {
    /// The distortion for a frame of a given size.
    private let makeMap: (Frame) -> Map
    private var size = (width: 0, height: 0)
    private var luma: RemapTable?
    private var chroma: RemapTable?
    /// The copies of the source regions of Y, U and V.
    private var scratch: (y: UnsafeMutableBufferPointer<UInt8>, u: UnsafeMutableBufferPointer<UInt8>,
                          v: UnsafeMutableBufferPointer<UInt8>) = (.init(start: nil, count: 0),
                                                                   .init(start: nil, count: 0),
                                                                   .init(start: nil, count: 0))

    init(map makeMap: @escaping (Frame) -> Map) {
        self.makeMap = makeMap
    }

    deinit { deallocateScratch() }

    /// Rebuilds the tables if the frame size changed, then copies the source regions aside.
    func prepare(_ frame: Frame) {
        if size != (frame.width, frame.height) { rebuild(for: frame) }
        guard let luma, let chroma else { return }
        luma.copySource(of: frame.y, into: scratch.y.baseAddress!)
        chroma.copySource(of: frame.u, into: scratch.u.baseAddress!)
        chroma.copySource(of: frame.v, into: scratch.v.baseAddress!)
    }

    /// Resamples luma rows `band` and the chroma rows that start in it, ⌈a/2⌉..<⌈b/2⌉ (so bands
    /// that partition the luma rows partition the chroma rows too). Needs ``prepare(_:)`` first.
    func remap(band: Range<Int>, of frame: Frame) {
        guard let luma, let chroma else { return }
        luma.remap(rows: band, of: frame.y, from: scratch.y.baseAddress!)
        let chromaRows = Partition.chromaRows(under: band)
        chroma.remap(rows: chromaRows, of: frame.u, from: scratch.u.baseAddress!, and: frame.v, from: scratch.v.baseAddress!)
    }

    private func rebuild(for frame: Frame) {
        size = (frame.width, frame.height)
        let map = makeMap(frame)
        let luma = RemapTable(width: frame.y.width, height: frame.y.height, subsampling: 1, map: map)
        let chroma = RemapTable(width: frame.u.width, height: frame.u.height, subsampling: 2, map: map)
        deallocateScratch()
        // At least one byte each, so the base addresses exist even when nothing moves.
        scratch = (.allocate(capacity: Swift.max(1, luma.scratchCount)),
                   .allocate(capacity: Swift.max(1, chroma.scratchCount)),
                   .allocate(capacity: Swift.max(1, chroma.scratchCount)))
        self.luma = luma
        self.chroma = chroma
    }

    private func deallocateScratch() {
        scratch.y.deallocate()
        scratch.u.deallocate()
        scratch.v.deallocate()
    }
}
