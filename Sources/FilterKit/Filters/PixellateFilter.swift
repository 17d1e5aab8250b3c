/// CIPixellate: replaces each block, aligned to the frame's top-left corner, by its mean colour.
/// Blocks at the right and bottom edges are cut to fit.
///
/// `scale` is the block size in pixels of a 1080-line frame: in this frame's pixels it is
/// `scale × height / 1080`, rounded, and at least 1 (see ``blockSize(in:)``). Scale 1, the
/// minimum, leaves the picture unchanged at every size (at 2160 lines it would otherwise be
/// blocks of 2).
///
/// Chroma is averaged over the chroma samples whose top-left luma pixel falls inside the block.
/// At even scales every block is one colour; at odd scales a chroma sample (two pixels wide)
/// straddles the edge between two blocks, and takes the colour of the block it starts in.
///
/// One pass, whose parts take rows of blocks of each plane.
public final class PixellateFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "pixellate", label: "Pixellate", category: .stylize,
        params: [ParameterDescriptor(name: "scale", label: "Scale", type: .integer, default: 8, min: 1, max: 100,
                                     step: 1, identity: 1)])

    /// The block size in pixels of a 1080-line frame.
    public let scale: Double
    /// Block edges along each axis for the current frame size: luma x, luma y, chroma x, chroma y.
    private var edges = BlockEdges()
    /// Per part: the column sums of one row of blocks, and its output row (a plane row wide each).
    private var columnSums: UnsafeMutableBufferPointer<UInt32> = .init(start: nil, count: 0)
    private var bandRow: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    private var width = 0

    public init(settings: FilterSettings) {
        scale = settings["scale"]
    }

    /// The block size in `frame`'s pixels (1: the picture is left as it is).
    public func blockSize(in frame: Frame) -> Int {
        scale <= 1 ? 1 : max(1, Int(frame.pixels(fromReference: scale).rounded()))
    }

    deinit {
        columnSums.deallocate()
        bandRow.deallocate()
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        let blockSize = blockSize(in: frame)
        guard blockSize > 1 else { return 0 }
        // The block size follows the height, so the edges' size key covers it.
        edges.update(for: frame, blockSize: blockSize)
        width = frame.width
        if columnSums.count < parts * width {
            columnSums.deallocate()
            bandRow.deallocate()
            columnSums = .allocate(capacity: parts * width)
            bandRow = .allocate(capacity: parts * width)
        }
        return 1
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        averageBlocks(frame.y, columns: edges.lumaX, rows: edges.lumaY, part: part, of: parts)
        averageBlocks(frame.u, columns: edges.chromaX, rows: edges.chromaY, part: part, of: parts)
        averageBlocks(frame.v, columns: edges.chromaX, rows: edges.chromaY, part: part, of: parts)
    }

    /// Sets every block of `plane` (between consecutive `columns` and `rows` edges) in part
    /// `part`'s share of the rows of blocks to its mean.
    ///
    /// Row of blocks by row of blocks: column sums over its rows (a vectorised add per row), then
    /// one sum per block, then the output row is copied to each of its rows.
    private func averageBlocks(_ plane: Plane, columns: [Int], rows: [Int], part: Int, of parts: Int) {
        let sums = columnSums.baseAddress! + part &* width, output = bandRow.baseAddress! + part &* width
        let width = plane.width
        columns.withUnsafeBufferPointer { columns in
            for band in Partition.items(part, of: parts, count: rows.count &- 1) {
                let top = rows[band], bottom = rows[band &+ 1]
                sums.update(repeating: 0, count: width)
                for y in top..<bottom {
                    let row = plane.row(y)
                    for x in 0..<width { sums[x] &+= UInt32(row[x]) }
                }
                let height = UInt32(bottom &- top)
                for block in 0..<(columns.count &- 1) {
                    let left = columns[block], right = columns[block &+ 1]
                    var sum: UInt32 = 0
                    for x in left..<right { sum &+= sums[x] }
                    let count = height &* UInt32(right &- left)
                    let mean = UInt8(truncatingIfNeeded: (sum &+ count / 2) / count)
                    for x in left..<right { output[x] = mean }
                }
                for y in top..<bottom { plane.row(y).update(from: output, count: width) }
            }
        }
    }
}

/// The block edges of a pixellated frame, recomputed only when the frame size changes.
struct BlockEdges {
    private(set) var lumaX: [Int] = []
    private(set) var lumaY: [Int] = []
    private(set) var chromaX: [Int] = []
    private(set) var chromaY: [Int] = []
    private var size = (width: 0, height: 0)

    mutating func update(for frame: Frame, blockSize: Int) {
        guard size != (frame.width, frame.height) else { return }
        size = (frame.width, frame.height)
        lumaX = Self.edges(length: frame.width, blockSize: blockSize, subsampling: 1)
        lumaY = Self.edges(length: frame.height, blockSize: blockSize, subsampling: 1)
        chromaX = Self.edges(length: frame.u.width, blockSize: blockSize, subsampling: 2)
        chromaY = Self.edges(length: frame.u.height, blockSize: blockSize, subsampling: 2)
    }

    /// 0, then the first sample index of each later block, then `length`; a sample `i` belongs to
    /// the block holding luma position `i × subsampling`. Empty blocks are left out.
    static func edges(length: Int, blockSize: Int, subsampling: Int) -> [Int] {
        var edges = [0]
        var block = 1
        while true {
            let start = (block * blockSize + subsampling - 1) / subsampling
            if start >= length { break }
            if start > edges[edges.count - 1] { edges.append(start) }
            block += 1
        }
        edges.append(length)
        return edges
    }
}
