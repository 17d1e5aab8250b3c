/// CIVignette: darkens (intensity > 0) or brightens (intensity < 0) the picture towards its
/// edges, as if every RGB component were scaled by one gain — so luma is scaled and chroma is
/// pulled towards (or pushed away from) 128 by the same factor.
///
/// With `t` the distance of a pixel centre from the frame centre divided by
/// `radius × half the diagonal`, the gain is `1 − intensity × smoothstep(t)` (full effect from
/// `t = 1` on). The gains are a per-sample map in Q14 fixed point (one for luma, one for the
/// chroma sample centres), rebuilt only when the frame size changes; bands of rows then scale
/// their samples at once.
public final class VignetteFilter: BandedFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "vignette", label: "Vignette", category: .stylize,
        params: [
            ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: -1, max: 1, step: 0.01,
                                identity: 0),
            ParameterDescriptor(name: "radius", label: "Radius", default: 1, min: 0, max: 2, step: 0.01),
        ])

    public static var buildsTablesOnFirstFrame: Bool { true }

    public let intensity: Double
    public let radius: Double

    static let gainShift = 14
    static let unityGain = 1 << gainShift

    private var lumaGains: UnsafeMutableBufferPointer<UInt16> = .init(start: nil, count: 0)
    private var chromaGains: UnsafeMutableBufferPointer<UInt16> = .init(start: nil, count: 0)
    private var size = (width: 0, height: 0)

    public init(settings: FilterSettings) {
        intensity = settings["intensity"]
        radius = settings["radius"]
    }

    deinit {
        lumaGains.deallocate()
        chromaGains.deallocate()
    }

    public func prepare(_ frame: Frame) {
        if intensity != 0, size != (frame.width, frame.height) { rebuildMaps(for: frame) }
    }

    public func apply(to frame: Frame, rows: Range<Int>) {
        guard intensity != 0, !rows.isEmpty else { return }
        let chromaRows = Partition.chromaRows(under: rows)
        Self.scaleLuma(frame.y.rows(rows), by: lumaGains.baseAddress! + rows.lowerBound &* frame.width)
        let chromaGains = chromaGains.baseAddress! + chromaRows.lowerBound &* frame.u.width
        Self.scaleChroma(frame.u.rows(chromaRows), by: chromaGains)
        Self.scaleChroma(frame.v.rows(chromaRows), by: chromaGains)
    }

    /// The gain at luma position (`x`, `y`) (pixel centres at integer + 0.5), in Q14.
    static func gain(x: Double, y: Double, width: Int, height: Int, intensity: Double, radius: Double) -> UInt16 {
        let dx = x - Double(width) / 2, dy = y - Double(height) / 2
        let distance = (dx * dx + dy * dy).squareRoot()
        let reach = radius * (Double(width * width + height * height)).squareRoot() / 2
        let t = reach > 0 ? distance / reach : (distance > 0 ? 1 : 0)
        let s = t >= 1 ? 1 : t * t * (3 - 2 * t)
        let gain = 1 - intensity * s
        return UInt16((gain * Double(unityGain)).rounded())
    }

    private func rebuildMaps(for frame: Frame) {
        size = (frame.width, frame.height)
        let width = frame.width, height = frame.height
        let chromaWidth = frame.u.width, chromaHeight = frame.u.height
        lumaGains.deallocate()
        chromaGains.deallocate()
        lumaGains = .allocate(capacity: width * height)
        chromaGains = .allocate(capacity: chromaWidth * chromaHeight)
        for y in 0..<height {
            for x in 0..<width {
                lumaGains[y * width + x] = Self.gain(x: Double(x) + 0.5, y: Double(y) + 0.5, width: width,
                                                     height: height, intensity: intensity, radius: radius)
            }
        }
        // A chroma sample covers luma pixels 2x, 2x+1 (cut at the right and bottom edges).
        for y in 0..<chromaHeight {
            let centreY = Double(2 * y) + Double(min(2, height - 2 * y)) / 2
            for x in 0..<chromaWidth {
                let centreX = Double(2 * x) + Double(min(2, width - 2 * x)) / 2
                chromaGains[y * chromaWidth + x] = Self.gain(x: centreX, y: centreY, width: width, height: height,
                                                             intensity: intensity, radius: radius)
            }
        }
    }

    private static func scaleLuma(_ plane: Plane, by gains: UnsafeMutablePointer<UInt16>) {
        let width = plane.width
        for y in 0..<plane.height {
            let row = plane.row(y), gainRow = gains + y &* width
            for x in 0..<width {
                let value = (UInt32(row[x]) &* UInt32(gainRow[x]) &+ UInt32(unityGain / 2)) &>> UInt32(gainShift)
                row[x] = UInt8(truncatingIfNeeded: Swift.min(value, 255))
            }
        }
    }

    private static func scaleChroma(_ plane: Plane, by gains: UnsafeMutablePointer<UInt16>) {
        let width = plane.width
        for y in 0..<plane.height {
            let row = plane.row(y), gainRow = gains + y &* width
            for x in 0..<width {
                let offset = (Int32(row[x]) &- 128) &* Int32(gainRow[x])
                let value = 128 &+ ((offset &+ Int32(unityGain / 2)) &>> Int32(gainShift))
                row[x] = UInt8(truncatingIfNeeded: Swift.max(0, Swift.min(value, 255)))
            }
        }
    }
}
