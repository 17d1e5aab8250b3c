/// A Gaussian blur of a frame's luma for effects that mix it with the sharp picture (bloom,
/// gloom, edge work). It is computed on the 2×2-averaged luma — a quarter of the samples — by
/// the gaussianBlur kernel (a ``BoxStack`` of three boxes), then read back at full resolution row
/// by row with bilinear weights (¾, ¼ along each axis). A blur several pixels wide hides the
/// half resolution.
///
/// It is the first ``passes`` passes of its filter's (see ``PassFilter``): the 2×2 average and
/// the blur's rows by bands of rows, the blur's columns by bands of columns. Those read the luma
/// before any row is rewritten; ``row(_:part:)`` may then be called for any rows, in any order,
/// with each part's own row scratch.
final class HalfResolutionBlur {
    /// Per-part scratch: the blurred row at full resolution and its vertical blend at half.
    private final class Rows {
        let output: UnsafeMutableBufferPointer<UInt8>
        let blend: UnsafeMutableBufferPointer<UInt16>

        init(width: Int) {
            output = .allocate(capacity: width)
            blend = .allocate(capacity: (width + 1) / 2)
        }

        deinit {
            output.deallocate()
            blend.deallocate()
        }
    }

    /// The passes that make the blur, before any row can be read.
    static let passes = 3

    private let scratch = BlurScratch()
    /// Its luma plane holds the blurred half-resolution luma.
    private var half: Frame?
    private var width = 0
    private var rows: [Rows] = []
    private var stack = BoxStack()
    private var stackSigma = 0.0

    init() {}

    /// Readies a blur of `frame`'s luma with a Gaussian of `sigma` luma samples, in `parts` parts.
    func preparePasses(for frame: Frame, sigma: Double, parts: Int) {
        let halfWidth = (frame.width + 1) / 2, halfHeight = (frame.height + 1) / 2
        if half?.width != halfWidth || half?.height != halfHeight {
            half = Frame(width: halfWidth, height: halfHeight)
        }
        scratch.prepare(width: halfWidth, height: halfHeight, parts: parts)
        if width != frame.width { rows = [] }
        while rows.count < parts { rows.append(Rows(width: frame.width)) }
        width = frame.width
        if stackSigma != sigma {
            let radii = GaussianBlurFilter.boxRadii(sigma: Swift.min(sigma / 2, GaussianBlurFilter.maximumSigma))
            stack = BoxStack(radii.0, radii.1, radii.2)
            stackSigma = sigma
        }
    }

    /// Pass `pass` (below ``passes``) of the blur, part `part` of `parts`.
    func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        let plane = half!.y
        switch pass {
        case 0: Self.downsample(frame.y, into: plane, rows: Partition.items(part, of: parts, count: plane.height))
        case 1: scratch.blurRows(plane, with: stack, rows: Partition.items(part, of: parts, count: plane.height), part: part)
        default: scratch.blurColumns(plane, with: stack, columns: Partition.columns(part, of: parts, width: plane.width))
        }
    }

    /// Rows `rows` of `half` are the rounded means of 2×2 blocks of `luma` (cut at odd edges by
    /// repeating the last row or column).
    private static func downsample(_ luma: Plane, into half: Plane, rows: Range<Int>) {
        let width = luma.width, pairs = width / 2, lastRow = luma.height &- 1
        for j in rows {
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

    /// Row `y` of the blurred luma at full resolution, in part `part`'s row scratch (valid until
    /// that part's next call).
    func row(_ y: Int, part: Int) -> UnsafePointer<UInt8> {
        let plane = half!.y, halfWidth = plane.width, last = halfWidth &- 1
        let output = rows[part].output.baseAddress!, blend = rows[part].blend.baseAddress!, width = width
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
        return UnsafePointer(output)
    }
}
