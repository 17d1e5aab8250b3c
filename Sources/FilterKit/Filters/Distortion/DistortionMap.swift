/// A geometric distortion of one frame size: for an output point, the point it takes its colour
/// from. Points are in luma pixel coordinates (pixel centres at integer + 0.5).
struct DistortionMap {
    /// The output points that may move; everything outside stays as it is.
    struct Region {
        var minX, minY, maxX, maxY: Double

        /// Every point.
        static let everywhere = Region(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    }

    let region: Region
    /// The source of the output point (x, y), or nil where the point keeps its own colour.
    let source: (_ x: Double, _ y: Double) -> (x: Double, y: Double)?
}
