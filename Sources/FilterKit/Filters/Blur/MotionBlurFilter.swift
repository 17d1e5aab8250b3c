import Foundation

/// CIMotionBlur: every sample becomes the mean of the samples on a line through it in the
/// direction `angle` (radians, counter-clockwise from the x axis, y up as in Core Image),
/// `radius` to either side (pixels of a 1080-line frame, scaled with the frame; chroma planes
/// use half of it). Coordinates outside the frame are clamped to the nearest edge sample.
///
/// The lines are digital lines stepping one sample along their major axis, so a line of
/// radius `r` holds `2·round(r · max(|cos|, |sin|)) + 1` samples. Running sums along the lines
/// (``BoxBlurKernel/blurAlongLines(_:into:radius:slope:lineSums:rows:)``) make the cost
/// independent of the radius; near-horizontal directions run on the transposed plane, so the
/// sums always advance row by row. Per plane, as passes over bands of rows: a copy (or a
/// transpose) of the plane, the kernel (each band with its own line sums; it computes any range
/// of its rows on its own), and for the transposed case the transpose back.
public final class MotionBlurFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "motionBlur", label: "Motion Blur", category: .blur,
        params: [
            ParameterDescriptor(name: "radius", label: "Radius", default: 20, min: 0, max: 100, step: 0.5, identity: 0),
            ParameterDescriptor(name: "angle", label: "Angle", type: .angle, default: 0, min: -Double.pi, max: Double.pi,
                                // ±3.14 puts 0 (the default) on the slider's 0.01 grid, as for hueAdjust.
                                sliderMin: -3.14, sliderMax: 3.14, step: 0.01),
        ])

    public let radius: Double
    /// The direction in image coordinates (y down).
    private let direction: (x: Double, y: Double)
    private let scratch = BlurScratch()
    /// Samples on either side along the lines in the current frame's luma and chroma planes.
    private var steps = (luma: 0, chroma: 0)

    public init(settings: FilterSettings) {
        radius = settings["radius"]
        let angle = settings["angle"]
        direction = (cos(angle), -sin(angle))
    }

    /// Whether the lines advance by rows (steeper than 45°) rather than by columns.
    var isNearVertical: Bool { abs(direction.y) >= abs(direction.x) }

    /// Samples on either side along the major axis, for a plane where the radius is `pixels`.
    func steps(pixels: Double) -> Int {
        Int((pixels * max(abs(direction.x), abs(direction.y))).rounded())
    }

    /// Passes per blurred plane: copy and blur, or transpose, blur and transpose back.
    private var passesPerPlane: Int { isNearVertical ? 2 : 3 }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        guard radius > 0 else { return 0 }
        let pixels = frame.pixels(fromReference: radius)
        steps = (self.steps(pixels: pixels), self.steps(pixels: pixels / 2))
        guard steps.luma > 0 else { return 0 }
        scratch.prepare(width: frame.width, height: frame.height, parts: parts)
        return (steps.chroma > 0 ? 3 : 1) * passesPerPlane
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        let plane = frame.plane(pass / passesPerPlane), stage = pass % passesPerPlane
        let steps = pass < passesPerPlane ? steps.luma : steps.chroma, sums = scratch.rowSums(part: part)
        if isNearVertical {
            let copy = scratch.plane(0, like: plane), rows = Partition.items(part, of: parts, count: plane.height)
            if stage == 0 {
                if !rows.isEmpty { copy.rows(rows).copy(from: plane.rows(rows)) }
            } else {
                BoxBlurKernel.blurAlongLines(copy, into: plane, radius: steps, slope: direction.x / direction.y,
                                             lineSums: sums, rows: rows)
            }
        } else {
            // Transposed, the plane's columns are rows and the slope is rows per column.
            let transposed = scratch.plane(0, width: plane.height, height: plane.width)
            let blurred = scratch.plane(1, width: plane.height, height: plane.width)
            switch stage {
            case 0: plane.transpose(into: transposed, rows: Partition.items(part, of: parts, count: plane.height))
            case 1: BoxBlurKernel.blurAlongLines(transposed, into: blurred, radius: steps, slope: direction.y / direction.x,
                                                 lineSums: sums, rows: Partition.items(part, of: parts, count: blurred.height))
            default: blurred.transpose(into: plane, rows: Partition.items(part, of: parts, count: blurred.height))
            }
        }
    }
}
