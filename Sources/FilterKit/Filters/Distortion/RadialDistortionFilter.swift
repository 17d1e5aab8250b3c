/// A radial distortion as a filter: the ``RadialWarp`` `Warp` over the disk of `radius` (pixels
/// of a 1080-line frame) around (`centerX`, `centerY`) (fractions of the frame). Points on or
/// outside the circle stay bit-exact, and so does the whole frame at the identity of the strength
/// or at radius 0.
public final class RadialDistortionFilter<Warp: RadialWarp>: BandedFilter, StandaloneFilter {
    public static var descriptor: FilterDescriptor {
        FilterDescriptor(name: Warp.name, label: Warp.label, category: .distortion,
                         params: [Warp.strength, .radius(default: 300), .centerX, .centerY])
    }

    public static var buildsTablesOnFirstFrame: Bool { true }

    public let strength: Double
    public let radius: Double
    private let isActive: Bool
    private let remapper: FrameRemapper<RadialMap<Warp>>

    public init(settings: FilterSettings) {
        let strength = settings[Warp.strength.name], radius = settings["radius"]
        let centerX = settings["centerX"], centerY = settings["centerY"]
        self.strength = strength
        self.radius = radius
        isActive = strength != Warp.strength.identity && radius > 0
        remapper = FrameRemapper { frame in
            RadialMap(center: frame.point(atFractionX: centerX, y: centerY),
                      radius: frame.pixels(fromReference: radius), strength: strength)
        }
    }

    public func prepare(_ frame: Frame) {
        if isActive { remapper.prepare(frame) }
    }

    public func apply(to frame: Frame, rows: Range<Int>) {
        if isActive { remapper.remap(band: rows, of: frame) }
    }
}
