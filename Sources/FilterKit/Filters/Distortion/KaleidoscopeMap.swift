import Foundation

/// The ``DistortionMap`` of ``KaleidoscopeFilter``: every point shows the wedge of angle
/// π/`count` that starts at `angle` (counterclockwise on screen) from `center`.
///
/// In y-up coordinates about the centre, a point at polar angle φ lies in sector
/// k = ⌊(φ − angle) / (2π/count)⌋; the first half of each sector is the wedge turned by k
/// sectors, the second half the wedge mirrored. Both transforms are precomputed per sector, so a
/// point costs one atan2.
struct KaleidoscopeMap: DistortionMap {
    let center: (x: Double, y: Double)
    let angle: Double
    let region = DistortionRegion.everywhere
    private let count: Int
    private let sector: Double
    /// Per sector: cos and sin of the turn back by k sectors.
    private let turns: [(cos: Double, sin: Double)]
    /// Per sector: cos and sin of twice its mirror line (a point at angle + k·sector + m, m past
    /// half a sector, shows angle + sector − m).
    private let mirrors: [(cos: Double, sin: Double)]

    init(center: (x: Double, y: Double), count: Int, angle: Double) {
        self.center = center
        self.angle = angle
        self.count = count
        let sector = 2 * Double.pi / Double(count)
        self.sector = sector
        turns = (0..<count).map { k in (cos(-Double(k) * sector), sin(-Double(k) * sector)) }
        mirrors = (0..<count).map { k in
            let line = angle + Double(k + 1) * sector / 2
            return (cos(2 * line), sin(2 * line))
        }
    }

    func source(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let dx = x - center.x, dy = center.y - y
        guard dx != 0 || dy != 0 else { return nil }
        let relative = atan2(dy, dx) - angle
        let turned = (relative / sector).rounded(.down)
        let k = ((Int(turned) % count) + count) % count
        let sx: Double, sy: Double
        if relative - turned * sector <= sector / 2 {
            let (c, s) = turns[k]
            (sx, sy) = (c * dx - s * dy, s * dx + c * dy)
        } else {
            let (c, s) = mirrors[k]
            (sx, sy) = (c * dx + s * dy, s * dx - c * dy)
        }
        return (center.x + sx, center.y - sy)
    }
}
