/// A cell filter (hexagonalPixellate, crystallize, pointillize): its ``CellPainter`` does the
/// work, in the cells of the ``CellLayout`` the filter places; the passes, and the tables built on
/// the first frame, are the painter's.
protocol CellFilter: PassFilter, StandaloneFilter {
    associatedtype Layout: CellLayout
    var painter: CellPainter { get }

    /// The cells for `frame`, `length` (the painter's length parameter) in its pixels, one cell
    /// placed at `origin`.
    func layout(length: Double, origin: (x: Double, y: Double), for frame: Frame) -> Layout
}

extension CellFilter {
    public static var buildsTablesOnFirstFrame: Bool { true }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        painter.preparePasses(for: frame, parts: parts) { length, origin in layout(length: length, origin: origin, for: frame) }
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        painter.run(pass: pass, part: part, of: parts, on: frame)
    }
}
