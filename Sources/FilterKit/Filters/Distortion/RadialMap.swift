/// The ``DistortionMap`` of a ``RadialWarp`` over the disk of `radius` pixels around `center`
/// (luma pixel coordinates): points on or outside the circle stay.
struct RadialMap<Warp: RadialWarp>: DistortionMap {
    let center: (x: Double, y: Double)
    let radius: Double
    let strength: Double

    var region: DistortionRegion {
        DistortionRegion(minX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
    }

    func source(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let dx = x - center.x, dy = y - center.y
        let squared = dx * dx + dy * dy
        guard squared < radius * radius else { return nil }
        let factor = Warp.factor(at: squared.squareRoot() / radius, strength: strength)
        return (center.x + factor.re * dx - factor.im * dy, center.y + factor.im * dx + factor.re * dy)
    }
}
