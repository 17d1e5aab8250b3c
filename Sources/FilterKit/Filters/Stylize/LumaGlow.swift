/// The glow shared by ``BloomFilter`` and ``GloomFilter``: luma moves towards its Gaussian blur
/// (sigma = radius / 2, radius in pixels of a 1080-line frame) by `intensity`, but only where
/// the blur is brighter (bloom: bright areas glow into darker surroundings) or darker (gloom:
/// highlights are dulled by their surroundings):
/// `y' = y + intensity × max(0, blur − y)` for bloom, `y' = y − intensity × max(0, y − blur)` for
/// gloom. The result stays between `y` and the blur, so it needs no clamping. Chroma is
/// untouched (the glow is white light); intensity 0 or radius 0 give the input back. Passes: the
/// blur's (``HalfResolutionBlur``), then the glow by bands of rows.
final class LumaGlow {
    let radius: Double
    /// The intensity in Q8.
    let weight: Int32
    /// Gloom is bloom on inverted luma: `255 − v` is `v ^ 255` for 8-bit samples.
    private let inversion: UInt8
    private let blur = HalfResolutionBlur()

    /// The catalog entry of a glow filter: Core Image's radius (10) and intensity (0.5).
    static func descriptor(name: String, label: String) -> FilterDescriptor {
        FilterDescriptor(name: name, label: label, category: .stylize, params: [
            ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100, step: 0.5, identity: 0),
            ParameterDescriptor(name: "intensity", label: "Intensity", default: 0.5, min: 0, max: 1, step: 0.01,
                                identity: 0),
        ])
    }

    /// A bloom (`brightens`) or a gloom with validated `settings` of ``descriptor(name:label:)``.
    init(settings: FilterSettings, brightens: Bool) {
        radius = settings["radius"]
        weight = Int32((settings["intensity"] * 256).rounded())
        inversion = brightens ? 0 : 255
    }

    func preparePasses(for frame: Frame, parts: Int) -> Int {
        guard weight > 0, radius > 0 else { return 0 }
        blur.preparePasses(for: frame, sigma: frame.pixels(fromReference: radius) / 2, parts: parts)
        return HalfResolutionBlur.passes + 1
    }

    func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        if pass < HalfResolutionBlur.passes {
            blur.run(pass: pass, part: part, of: parts, on: frame)
        } else {
            glow(frame.y, rows: Partition.rows(part, of: parts, height: frame.height), part: part)
        }
    }

    /// Rows `range` of `luma`, after the blur's passes.
    private func glow(_ luma: Plane, rows range: Range<Int>, part: Int) {
        let width = luma.width, weight = weight, inversion = inversion
        for y in range {
            let blurred = blur.row(y, part: part), row = luma.row(y)
            for x in 0..<width {
                let value = Int32(row[x] ^ inversion), target = Int32(blurred[x] ^ inversion)
                let glow = (Swift.max(target &- value, 0) &* weight &+ 128) &>> 8
                row[x] = UInt8(truncatingIfNeeded: value &+ glow) ^ inversion
            }
        }
    }
}
