/// The machinery shared by the cell filters (hexagonalPixellate, crystallize, pointillize): every
/// cell of a ``CellLayout`` takes the mean colour of the input samples it covers — luma averaged
/// over the cell's luma samples, chroma over the chroma samples whose centres lie in the cell —
/// and the background, if the layout has one, a fixed colour.
///
/// The cells' size is one length parameter, in pixels of a 1080-line frame; they are placed
/// relative to the `centerX`/`centerY` point. Its minimum, 1, leaves the picture unchanged at
/// every frame size, and so does any length under one pixel of the frame at hand (cells that
/// small would show nothing, and their number would grow without bound on short frames).
///
/// The run maps (``CellRuns``, one for luma, one for chroma) and the colour tables are built on
/// the first frame and rebuilt only when the frame size changes: the layout depends on the frame
/// only through its size. A frame is two stages, as a ``BandedFilter`` wants them:
/// ``prepare(_:layout:)`` reads the whole frame into the per-frame colour tables, then
/// ``paint(_:lumaRows:)`` writes any band of rows from them (bands on several threads at once
/// only read the painter).
final class CellPainter {
    /// The cells' size parameter, in pixels of a 1080-line frame.
    let length: Double
    /// The `centerX`/`centerY` fractions.
    let center: (x: Double, y: Double)
    /// The background colour (Y, Cb, Cr), for layouts with a background.
    let background: (y: UInt8, u: UInt8, v: UInt8)

    private var luma = CellRuns()
    private var chroma = CellRuns()
    private var size = (width: 0, height: 0)
    /// Per cell (the background last): a sum scratch, then the mean Y, Cb and Cr.
    private var sums: UnsafeMutableBufferPointer<UInt32> = .init(start: nil, count: 0)
    private var means: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)

    /// A painter for `settings`, whose cell size is the parameter named `length`.
    init(_ settings: FilterSettings, length: String, background: (y: UInt8, u: UInt8, v: UInt8) = (0, 128, 128)) {
        self.length = settings[length]
        center = (settings["centerX"], settings["centerY"])
        self.background = background
    }

    deinit {
        sums.deallocate()
        means.deallocate()
    }

    /// Whether the cells change `frame` at all: not at the minimum length, nor under one pixel.
    func changes(_ frame: Frame) -> Bool {
        length > 1 && frame.pixels(fromReference: length) >= 1
    }

    /// Stage 1: the mean colour of every cell of `frame`, which must not change until painted;
    /// first (re)builds the maps with the cells `layout(length, origin)` gives for the length in
    /// this frame's pixels and the centre point, when the frame size has changed.
    func prepare<Layout: CellLayout>(_ frame: Frame, layout: (_ length: Double, _ origin: (x: Double, y: Double)) -> Layout) {
        guard changes(frame) else { return }
        if size != (frame.width, frame.height) {
            rebuild(for: frame, layout: layout(frame.pixels(fromReference: length),
                                               frame.point(atFractionX: center.x, y: center.y)))
        }
        let cells = sums.count, means = means.baseAddress!, sums = sums.baseAddress!
        luma.average(frame.y, sums: sums, into: means)
        chroma.average(frame.u, sums: sums, into: means + cells)
        chroma.average(frame.v, sums: sums, into: means + 2 &* cells)
    }

    private func rebuild(for frame: Frame, layout: some CellLayout) {
        size = (frame.width, frame.height)
        luma = CellRuns(layout: layout,
                        columnCentres: CellRuns.centres(lumaLength: frame.width, subsampling: 1),
                        rowCentres: CellRuns.centres(lumaLength: frame.height, subsampling: 1))
        chroma = CellRuns(layout: layout,
                          columnCentres: CellRuns.centres(lumaLength: frame.width, subsampling: 2),
                          rowCentres: CellRuns.centres(lumaLength: frame.height, subsampling: 2))
        let cells = layout.cellCount + 1
        sums.deallocate()
        means.deallocate()
        sums = .allocate(capacity: cells)
        means = .allocate(capacity: 3 * cells)
        means.initialize(repeating: 0)
        means[cells - 1] = background.y
        means[2 * cells - 1] = background.u
        means[3 * cells - 1] = background.v
    }

    /// Stage 2: paints luma rows `lumaRows` and the chroma rows they start, from what
    /// ``prepare(_:layout:)`` gathered for this frame.
    func paint(_ frame: Frame, lumaRows: Range<Int>) {
        guard changes(frame) else { return }
        let cells = sums.count, means = UnsafePointer(means.baseAddress!)
        let chromaRows = ((lumaRows.lowerBound &+ 1) &>> 1)..<((lumaRows.upperBound &+ 1) &>> 1)
        luma.paint(frame.y, rows: lumaRows, from: means)
        chroma.paint(frame.u, rows: chromaRows, from: means + cells)
        chroma.paint(frame.v, rows: chromaRows, from: means + 2 &* cells)
    }
}
