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
/// sums always advance row by row. For bands on several threads: the kernel computes any range of
/// its rows on its own (those are columns of the frame when transposed), each band with its own
/// line sums; the copy or transposes before and the transpose after are per-frame passes.
public final class MotionBlurFilter: FrameFilter {
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

    public func apply(to frame: Frame) {
        guard radius > 0 else { return }
        scratch.prepare(width: frame.width, height: frame.height)
        let pixels = frame.pixels(fromReference: radius)
        blur(frame.y, steps: steps(pixels: pixels))
        let chromaSteps = steps(pixels: pixels / 2)
        blur(frame.u, steps: chromaSteps)
        blur(frame.v, steps: chromaSteps)
    }

    private func blur(_ plane: Plane, steps: Int) {
        guard steps > 0 else { return }
        let sums = scratch.rows!
        if isNearVertical {
            let copy = scratch.plane(0, like: plane)
            copy.copy(from: plane)
            BoxBlurKernel.blurAlongLines(copy, into: plane, radius: steps, slope: direction.x / direction.y,
                                         lineSums: sums, rows: 0..<plane.height)
        } else {
            // Transposed, the plane's columns are rows and the slope is rows per column.
            let transposed = scratch.plane(0, width: plane.height, height: plane.width)
            let blurred = scratch.plane(1, width: plane.height, height: plane.width)
            plane.transpose(into: transposed)
            BoxBlurKernel.blurAlongLines(transposed, into: blurred, radius: steps, slope: direction.y / direction.x,
                                         lineSums: sums, rows: 0..<transposed.height)
            blurred.transpose(into: plane)
        }
    }
}
