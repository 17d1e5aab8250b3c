/// A geometric distortion of one frame size: for an output point, the point it takes its colour
/// from. Points are in luma pixel coordinates (pixel centres at integer + 0.5).
///
/// A protocol rather than a closure so that table building, which calls ``source(_:_:)`` for
/// every sample, is specialised and free of reference counting.
protocol DistortionMap {
    /// The output points that may move; everything outside stays as it is.
    var region: DistortionRegion { get }
    /// The source of the output point (x, y), or nil where the point keeps its own colour.
    func source(_ x: Double, _ y: Double) -> (x: Double, y: Double)?
}

/// A rectangle of luma pixel coordinates, bounds included.
struct DistortionRegion {
    var minX, minY, maxX, maxY: Double

    /// Every point.
    static let everywhere = DistortionRegion(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
}
