/// CIKaleidoscope: the wedge of angle π/`count` that starts at `angle` from the centre, mirrored
/// and repeated around it, `count` times turned and `count` times mirrored (12-fold symmetry at
/// the default 6). Angles are counterclockwise on screen from the rightward direction, as Core
/// Image's. Points outside the frame are clamped to its edge.
public final class KaleidoscopeFilter: BandedFilter, StandaloneFilter {
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

    public static var buildsTablesOnFirstFrame: Bool { true }

    public let count: Int
    public let angle: Double
    private let remapper: FrameRemapper<KaleidoscopeMap>

    public init(settings: FilterSettings) {
        let count = Int(settings["count"]), angle = settings["angle"]
        let centerX = settings["centerX"], centerY = settings["centerY"]
        self.count = count
        self.angle = angle
        remapper = FrameRemapper { frame in
            KaleidoscopeMap(center: frame.point(atFractionX: centerX, y: centerY), count: count, angle: angle)
        }
    }

    public func prepare(_ frame: Frame) { remapper.prepare(frame) }

    public func apply(to frame: Frame, rows: Range<Int>) { remapper.remap(band: rows, of: frame) }
}
