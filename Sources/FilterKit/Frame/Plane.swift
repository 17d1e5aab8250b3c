/// One 8-bit image plane: `height` rows of `width` samples, rows `stride` bytes apart.
///
/// A plane does not own its memory; the ``Frame`` (or the decoder) that does must outlive it.
public struct Plane {
    public let base: UnsafeMutablePointer<UInt8>
    public let width: Int
    public let height: Int
    public let stride: Int

    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width, "invalid plane geometry")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The first sample of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y &* stride }

    /// The rows `rows` of this plane, sharing its memory.
    func rows(_ rows: Range<Int>) -> Plane {
        Plane(base: row(rows.lowerBound), width: width, height: rows.count, stride: stride)
    }

    /// Sets every sample to `value`.
    public func fill(_ value: UInt8) {
        for y in 0..<height { row(y).update(repeating: value, count: width) }
    }

    /// Copies the samples of `source`, which must have the same width and height.
    public func copy(from source: Plane) {
        precondition(source.width == width && source.height == height, "plane size mismatch")
        for y in 0..<height { row(y).update(from: source.row(y), count: width) }
    }
}
