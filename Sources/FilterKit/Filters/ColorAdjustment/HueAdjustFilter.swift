import Foundation

/// CIHueAdjust on YUV planes: rotates each (Cb − 128, Cr − 128) vector by `angle` radians
/// (a 2×2 fixed-point matrix on chroma; luma is untouched), with FFmpeg `hue`'s orientation:
/// `Cb′ = cos·Cb − sin·Cr`, `Cr′ = sin·Cb + cos·Cr` (deviations from 128).
public final class HueAdjustFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "hueAdjust", label: "Hue Adjust", category: .colorAdjustment,
        params: [ParameterDescriptor(name: "angle", label: "Angle", type: .angle, default: 1,
                                     min: -Double.pi, max: Double.pi,
                                     // A slider's values lie on a grid from its minimum: ±3.14
                                     // puts 0 (the identity) and 1 (the default) on the 0.01
                                     // grid, −π would not.
                                     sliderMin: -3.14, sliderMax: 3.14, step: 0.01, identity: 0)])

    private let cos: Int32
    private let sin: Int32

    public init(settings: FilterSettings) {
        let angle = settings["angle"]
        cos = ColorKernels.fixed(Foundation.cos(angle))
        sin = ColorKernels.fixed(Foundation.sin(angle))
    }

    public func apply(to frame: Frame) {
        if cos == ColorKernels.one && sin == 0 { return }
        let c = cos, s = sin, width = frame.u.width
        let bias = (128 &<< ColorKernels.fractionBits) &+ ColorKernels.half
        for y in 0..<frame.u.height {
            let cbRow = frame.u.row(y), crRow = frame.v.row(y)
            for x in 0..<width {
                let cb = Int32(cbRow[x]) &- 128, cr = Int32(crRow[x]) &- 128
                cbRow[x] = ColorKernels.clamp((cb &* c &- cr &* s &+ bias) &>> ColorKernels.fractionBits)
                crRow[x] = ColorKernels.clamp((cb &* s &+ cr &* c &+ bias) &>> ColorKernels.fractionBits)
            }
        }
    }
}
