/// CIVibrance on YUV planes: a saturation change weighted towards muted colours. Per chroma
/// sample, with `s = |Cb − 128| + |Cr − 128|` (0…256), both deviations scale by
/// `1 + amount·(1 − s/256)` (never below 0), in fixed point; luma is untouched.
public final class VibranceFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "vibrance", label: "Vibrance", category: .colorAdjustment,
        params: [ParameterDescriptor(name: "amount", label: "Amount", default: 0.6, min: -1, max: 1,
                                     step: 0.01, identity: 0)])

    /// amount × 2¹²
    private let amount: Int32

    public init(settings: FilterSettings) {
        amount = ColorKernels.fixed(settings["amount"])
    }

    public func apply(to frame: Frame) {
        if amount == 0 { return }
        let amount = amount, width = frame.u.width
        let bias = (128 &<< ColorKernels.fractionBits) &+ ColorKernels.half
        for y in 0..<frame.u.height {
            let cbRow = frame.u.row(y), crRow = frame.v.row(y)
            for x in 0..<width {
                let cb = Int32(cbRow[x]) &- 128, cr = Int32(crRow[x]) &- 128
                let s = abs(cb) &+ abs(cr)
                // 1 + amount·(256 − s)/256, with |amount·(256 − s)| ≤ 2¹² · 2⁸.
                let factor = max(0, ColorKernels.one &+ ((amount &* (256 &- s)) &>> 8))
                cbRow[x] = ColorKernels.clamp((cb &* factor &+ bias) &>> ColorKernels.fractionBits)
                crRow[x] = ColorKernels.clamp((cr &* factor &+ bias) &>> ColorKernels.fractionBits)
            }
        }
    }
}
