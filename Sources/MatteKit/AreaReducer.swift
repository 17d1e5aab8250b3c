import FilterKit

/// Reduces an 8-bit plane to a smaller grid of floats, each the mean of its cell of the plane
/// (cells tile the plane; their edges are rounded down to whole samples): the frame's pictures at
/// the network's size. A mean, not a bilinear sample, so that the noise of the camera is averaged
/// away rather than aliased into the network's input — which would make a still person's matte
/// shimmer — and so that the guided filter's low-resolution guide is the picture's own low-pass.
///
/// Cell edges and the scratch row are made once for a pair of sizes; reducing allocates nothing.
/// One thread at a time.
final class AreaReducer {
    let width: Int
    let height: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    /// Cell i spans columns `columns[i].start ..< columns[i].end`; likewise rows.
    private let columns: [(start: Int, end: Int)]
    private let rows: [(start: Int, end: Int)]
    /// 1 / (the cell's columns), per cell column.
    private let columnScale: [Float]
    /// The sums down the cell's rows, per source column.
    private let sums: UnsafeMutableBufferPointer<UInt32>

    init(from source: (width: Int, height: Int), to destination: (width: Int, height: Int)) {
        precondition(source.width > 0 && source.height > 0 && destination.width > 0 && destination.height > 0,
                     "reducing \(source) to \(destination)")
        width = destination.width
        height = destination.height
        sourceWidth = source.width
        sourceHeight = source.height
        columns = Self.cells(source.width, destination.width)
        rows = Self.cells(source.height, destination.height)
        columnScale = columns.map { 1 / Float($0.end - $0.start) }
        sums = .allocate(capacity: source.width)
    }

    deinit { sums.deallocate() }

    /// `cells` spans tiling `count` samples; where there are fewer samples than cells, each cell
    /// takes the one sample it falls on.
    private static func cells(_ count: Int, _ cells: Int) -> [(start: Int, end: Int)] {
        (0..<cells).map { index in
            let start = index * count / cells
            return (start, max((index + 1) * count / cells, start + 1))
        }
    }

    /// The means of `plane`'s cells (0…255) into `target`, `width × height` floats row-major.
    func reduce(_ plane: Plane, into target: UnsafeMutablePointer<Float>) {
        precondition(plane.width == sourceWidth && plane.height == sourceHeight, "a plane of another size")
        let sums = sums.baseAddress!, count = sourceWidth
        columns.withUnsafeBufferPointer { columns in
            columnScale.withUnsafeBufferPointer { columnScale in
                for j in 0..<height {
                    let (first, last) = rows[j]
                    let top = plane.row(first)
                    for x in 0..<count { sums[x] = UInt32(top[x]) }
                    for y in (first &+ 1)..<last {
                        let line = plane.row(y)
                        for x in 0..<count { sums[x] &+= UInt32(line[x]) }
                    }
                    let rowScale = 1 / Float(last &- first), output = target + j &* width
                    for i in 0..<width {
                        var sum: UInt32 = 0
                        for x in columns[i].start..<columns[i].end { sum &+= sums[x] }
                        output[i] = Float(sum) * columnScale[i] * rowScale
                    }
                }
            }
        }
    }
}
