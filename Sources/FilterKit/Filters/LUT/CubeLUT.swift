/// A 3D colour lookup table as an Adobe Cube file (`.cube`) gives it: `size`³ RGB entries, red
/// changing fastest, then green, then blue, each mapping the input point of the lattice
/// `DOMAIN_MIN`…`DOMAIN_MAX` to an output colour (0…1 is black to full scale).
///
/// A plain value: parsed once (``CubeParser``), shared read-only between threads.
public struct CubeLUT: Sendable, Equatable {
    /// Entries per axis, ``CubeParser/sizes``.
    public let size: Int
    /// `TITLE`, or "" when the file has none.
    public let title: String
    /// The input range per channel (R, G, B): `DOMAIN_MIN` and `DOMAIN_MAX`, 0 and 1 by default.
    public let domainMin: [Float]
    public let domainMax: [Float]
    /// `size`³ × 3 values: entry `(r, g, b)` at `3 · (r + size · (g + size · b))`, as in the file.
    public let values: [Float]

    public init(size: Int, title: String = "", domainMin: [Float] = [0, 0, 0], domainMax: [Float] = [1, 1, 1],
                values: [Float]) {
        precondition(values.count == size * size * size * 3, "a \(size)³ LUT has \(size * size * size) entries")
        self.size = size
        self.title = title
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.values = values
    }

    /// The identity of `size`: every colour maps to itself.
    public static func identity(size: Int) -> CubeLUT {
        var values: [Float] = []
        values.reserveCapacity(size * size * size * 3)
        let scale = 1 / Float(size - 1)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size { values += [Float(r) * scale, Float(g) * scale, Float(b) * scale] }
            }
        }
        return CubeLUT(size: size, values: values)
    }

    /// The colour `(r, g, b)` (each 0…1 of the domain's span) maps to, by tetrahedral interpolation
    /// as FFmpeg's `lut3d` (`interp=tetrahedral`) computes it: the lattice cell around the point is
    /// split into six tetrahedra along its diagonal, and the colour is the barycentric mix of the
    /// four corners of the one that holds the point. Inputs are clamped to the lattice.
    public func tetrahedral(_ red: Float, _ green: Float, _ blue: Float) -> (Float, Float, Float) {
        let top = Float(size - 1)
        let r = Swift.min(Swift.max(red * top, 0), top), g = Swift.min(Swift.max(green * top, 0), top)
        let b = Swift.min(Swift.max(blue * top, 0), top)
        let r0 = Int(r), g0 = Int(g), b0 = Int(b)
        let r1 = Swift.min(r0 + 1, size - 1), g1 = Swift.min(g0 + 1, size - 1), b1 = Swift.min(b0 + 1, size - 1)
        let dr = r - Float(r0), dg = g - Float(g0), db = b - Float(b0)
        // The corners by offsets along (r, g, b); c000 and c111 belong to every tetrahedron.
        func corner(_ ri: Int, _ gi: Int, _ bi: Int) -> Int { 3 * (ri + size * (gi + size * bi)) }
        let c000 = corner(r0, g0, b0), c111 = corner(r1, g1, b1)
        let (first, second, w0, w1, w2, w3): (Int, Int, Float, Float, Float, Float) =
            if dr > dg {
                if dg > db { (corner(r1, g0, b0), corner(r1, g1, b0), 1 - dr, dr - dg, dg - db, db) }
                else if dr > db { (corner(r1, g0, b0), corner(r1, g0, b1), 1 - dr, dr - db, db - dg, dg) }
                else { (corner(r0, g0, b1), corner(r1, g0, b1), 1 - db, db - dr, dr - dg, dg) }
            } else {
                if db > dg { (corner(r0, g0, b1), corner(r0, g1, b1), 1 - db, db - dg, dg - dr, dr) }
                else if db > dr { (corner(r0, g1, b0), corner(r0, g1, b1), 1 - dg, dg - db, db - dr, dr) }
                else { (corner(r0, g1, b0), corner(r1, g1, b0), 1 - dg, dg - dr, dr - db, db) }
            }
        func mix(_ channel: Int) -> Float {
            w0 * values[c000 + channel] + w1 * values[first + channel] + w2 * values[second + channel]
                + w3 * values[c111 + channel]
        }
        return (mix(0), mix(1), mix(2))
    }
}
