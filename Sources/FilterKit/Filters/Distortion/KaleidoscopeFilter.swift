import Foundation

/// CIKaleidoscope: the wedge of angle π/`count` that starts at `angle` from the centre, mirrored
/// and repeated around it, `count` times turned and `count` times mirrored (12-fold symmetry at
/// the default 6). Angles are counterclockwise on screen from the rightward direction, as Core
/// Image's. Points outside the frame are clamped to its edge.
public final class KaleidoscopeFilter: BandedFilter {
    public static let descriptor = FilterDescriptor(
        name: "kaleidoscope", label: "Kaleidoscope", category: .distortion,
        params: [
            ParameterDescriptor(name: "count", label: "Count", type: .integer, default: 6, min: 1, max: 64,
                                sliderMin: 1, sliderMax: 24, step: 1),
            ParameterDescriptor(name: "angle", label: "Angle", type: .angle, default: 0, min: -2 * .pi, max: 2 * .pi,
                                // One-degree steps from −π put the default (0) on the slider's grid.
                                sliderMin: -.pi, sliderMax: .pi, step: .pi / 180),
            .centerX, .centerY,
        ])

    public let count: Int
    public let angle: Double
    private let remapper: FrameRemapper

    public init(settings: FilterSettings) {
        let count = Int(settings["count"]), angle = settings["angle"]
        let centerX = settings["centerX"], centerY = settings["centerY"]
        self.count = count
        self.angle = angle
        remapper = FrameRemapper { frame in
            Self.map(center: frame.point(atFractionX: centerX, y: centerY), count: count, angle: angle)
        }
    }

    public func prepare(_ frame: Frame) { remapper.prepare(frame) }

    public func apply(to frame: Frame, rows: Range<Int>) { remapper.remap(band: rows, of: frame) }

    /// In y-up coordinates about the centre, a point at polar angle φ lies in sector
    /// k = ⌊(φ − angle) / (2π/count)⌋; the first half of each sector is the wedge turned by
    /// k sectors, the second half the wedge mirrored across the sector's middle line. Both
    /// transforms are precomputed per sector, so a point costs one atan2.
    static func map(center: (x: Double, y: Double), count: Int, angle: Double) -> DistortionMap {
        let sector = 2 * Double.pi / Double(count)
        // Per sector: cos and sin of the turn back by k sectors, and of twice the mirror line
        // (a point at angle angle + k·sector + m, m past half a sector, shows angle + sector − m).
        let turns = (0..<count).map { k in (cos(-Double(k) * sector), sin(-Double(k) * sector)) }
        let mirrors = (0..<count).map { k in
            let line = angle + Double(k + 1) * sector / 2
            return (cos(2 * line), sin(2 * line))
        }
        return DistortionMap(region: .everywhere) { x, y in
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
}
