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
/// only through its size. A frame is three passes of a ``PassFilter``: each part sums the cells'
/// samples in its band of rows, then each part takes the means of its share of the cells (adding
/// up the parts' sums), then each part paints its band from the means.
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
    /// Cells of the layout, the background (last) included.
    private var cells = 0
    /// Per part, per cell: the sums of Y, then of Cb, then of Cr; per cell the mean Y, Cb and Cr.
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

    /// Readies `frame` for its passes in `parts` parts; first (re)builds the maps with the cells
    /// `layout(length, origin)` gives for the length in this frame's pixels and the centre point,
    /// when the frame size has changed. 0 passes when the cells change nothing.
    func preparePasses<Layout: CellLayout>(for frame: Frame, parts: Int,
                                           layout: (_ length: Double, _ origin: (x: Double, y: Double)) -> Layout) -> Int {
        guard changes(frame) else { return 0 }
        if size != (frame.width, frame.height) {
            rebuild(for: frame, layout: layout(frame.pixels(fromReference: length),
                                               frame.point(atFractionX: center.x, y: center.y)))
        }
        if sums.count < parts * 3 * cells {
            sums.deallocate()
            sums = .allocate(capacity: parts * 3 * cells)
        }
        return 3
    }

    /// Pass `pass` of part `part`: sums of its band, means of its cells, or paint of its band.
    func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        let cells = cells, rows = Partition.rows(part, of: parts, height: frame.height)
        let chromaRows = Partition.chromaRows(under: rows), means = means.baseAddress!
        switch pass {
        case 0:
            let sums = sums.baseAddress! + part &* 3 &* cells
            luma.sum(frame.y, rows: rows, into: sums)
            chroma.sum(frame.u, rows: chromaRows, into: sums + cells)
            chroma.sum(frame.v, rows: chromaRows, into: sums + 2 &* cells)
        case 1:
            let sums = UnsafePointer(sums.baseAddress!), stride = 3 &* cells
            let share = Partition.items(part, of: parts, count: cells)
            luma.mean(of: sums, parts: parts, stride: stride, cells: share, into: means)
            chroma.mean(of: sums + cells, parts: parts, stride: stride, cells: share, into: means + cells)
            chroma.mean(of: sums + 2 &* cells, parts: parts, stride: stride, cells: share, into: means + 2 &* cells)
        default:
            luma.paint(frame.y, rows: rows, from: means)
            chroma.paint(frame.u, rows: chromaRows, from: means + cells)
            chroma.paint(frame.v, rows: chromaRows, from: means + 2 &* cells)
        }
    }

    private func rebuild(for frame: Frame, layout: some CellLayout) {
        size = (frame.width, frame.height)
        luma = CellRuns(layout: layout,
                        columnCentres: CellRuns.centres(lumaLength: frame.width, subsampling: 1),
                        rowCentres: CellRuns.centres(lumaLength: frame.height, subsampling: 1))
        chroma = CellRuns(layout: layout,
                          columnCentres: CellRuns.centres(lumaLength: frame.width, subsampling: 2),
                          rowCentres: CellRuns.centres(lumaLength: frame.height, subsampling: 2))
        cells = layout.cellCount + 1
        sums.deallocate()
        sums = .init(start: nil, count: 0)
        means.deallocate()
        means = .allocate(capacity: 3 * cells)
        means.initialize(repeating: 0)
        means[cells - 1] = background.y
        means[2 * cells - 1] = background.u
        means[3 * cells - 1] = background.v
    }
}
