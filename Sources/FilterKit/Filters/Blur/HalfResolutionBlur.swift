/// A Gaussian blur of a frame's luma for effects that mix it with the sharp picture (bloom,
/// gloom, edge work). It is computed on the 2×2-averaged luma — a quarter of the samples — by
/// ``BlurScratch/stackedBoxBlur(_:radii:)`` (the gaussianBlur kernel), then read back at full
/// resolution row by row with bilinear weights (¾, ¼ along each axis). A blur several pixels
/// wide hides the half resolution.
///
/// `prepare` is the per-frame pass (it reads the luma before any row is rewritten); `row` may
/// then be called for any rows, in any order, each with its own ``Rows`` scratch.
final class HalfResolutionBlur {
    /// Per-row scratch: the blurred row at full resolution and its vertical blend at half.
    final class Rows {
        private(set) var output: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
        fileprivate private(set) var blend: UnsafeMutableBufferPointer<UInt16> = .init(start: nil, count: 0)

        init() {}

        deinit {
            output.deallocate()
            blend.deallocate()
        }

        /// Makes room for rows of `width` samples.
        func prepare(width: Int) {
            guard output.count != width else { return }
            output.deallocate()
            blend.deallocate()
            output = .allocate(capacity: width)
            blend = .allocate(capacity: (width + 1) / 2)
        }
    }

    private let scratch = BlurScratch()
    /// Its luma plane holds the blurred half-resolution luma.
    private var half: Frame?
    private var width = 0

    init() {}

    /// Blurs `frame`'s luma with a Gaussian of `sigma` luma samples.
    func prepare(from frame: Frame, sigma: Double) {
        let halfWidth = (frame.width + 1) / 2, halfHeight = (frame.height + 1) / 2
        if half?.width != halfWidth || half?.height != halfHeight {
            half = Frame(width: halfWidth, height: halfHeight)
            scratch.prepare(width: halfWidth, height: halfHeight)
        }
        width = frame.width
        let plane = half!.y
        Self.downsample(frame.y, into: plane)
        let boxes = GaussianBlurFilter.boxRadii(sigma: Swift.min(sigma / 2, GaussianBlurFilter.maximumSigma))
        scratch.stackedBoxBlur(plane, radii: boxes)
    }

    /// Each sample of `half` is the rounded mean of a 2×2 block of `luma` (cut at odd edges by
    /// repeating the last row or column).
    private static func downsample(_ luma: Plane, into half: Plane) {
        let width = luma.width, pairs = width / 2, lastRow = luma.height &- 1
        for j in 0..<half.height {
            let top = luma.row(2 &* j), bottom = luma.row(Swift.min(2 &* j &+ 1, lastRow)), output = half.row(j)
            for i in 0..<pairs {
                let sum = UInt16(top[2 &* i]) &+ UInt16(top[2 &* i &+ 1]) &+ UInt16(bottom[2 &* i]) &+ UInt16(bottom[2 &* i &+ 1])
                output[i] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
            if width & 1 == 1 {
                output[pairs] = UInt8(truncatingIfNeeded: (UInt16(top[width &- 1]) &+ UInt16(bottom[width &- 1]) &+ 1) &>> 1)
            }
        }
    }

    /// Row `y` of the blurred luma at full resolution, into `rows.output` (prepared for the width).
    func row(_ y: Int, rows: Rows) {
        let plane = half!.y, halfWidth = plane.width, last = halfWidth &- 1
        let output = rows.output.baseAddress!, blend = rows.blend.baseAddress!, width = width
        // Luma row 2j sits a quarter of a half-resolution row above half row j, 2j + 1 a quarter below.
        let j = y &>> 1, other = y & 1 == 0 ? Swift.max(j &- 1, 0) : Swift.min(j &+ 1, plane.height &- 1)
        let near = plane.row(j), far = plane.row(other)
        for i in 0..<halfWidth { blend[i] = 3 &* UInt16(near[i]) &+ UInt16(far[i]) }
        @inline(__always) func mix(_ centre: UInt16, _ side: UInt16) -> UInt8 {
            UInt8(truncatingIfNeeded: (3 &* centre &+ side &+ 8) &>> 4)
        }
        // Between half samples i and i + 1 lie luma pixels 2i + 1 (nearer i) and 2i + 2 (nearer i + 1).
        output[0] = mix(blend[0], blend[0])
        for i in 0..<last {
            let left = blend[i], right = blend[i &+ 1]
            output[2 &* i &+ 1] = mix(left, right)
            output[2 &* i &+ 2] = mix(right, left)
        }
        if width & 1 == 0 { output[width &- 1] = mix(blend[last], blend[last]) }
    }
}
