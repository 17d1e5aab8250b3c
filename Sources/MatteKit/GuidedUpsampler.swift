import FilterKit

/// Brings a matte from the network's size to the frame's along the picture's own edges: a fast
/// guided filter (He and Sun, 2015) on luma. At the small size the matte `p` is fitted locally
/// as `a·I + b` of the reduced luma `I` (boxes of ``radius``, regularised by ``epsilon``); the
/// smooth maps `a` and `b` are enlarged bilinearly and applied to the frame's own luma, so the
/// matte's edge follows the edges of hair and shoulders at full resolution — no halo of the
/// enlarged blur around the person.
///
/// Buffers are allocated once for a pair of sizes; a frame allocates nothing. One thread at a time.
final class GuidedUpsampler {
    /// The box radius at the network's size (at 720p, 5 frame pixels a sample).
    static let radius = 2
    /// The regulariser, on luma in 0…1: edges weaker than about √ε (≈ 10 of 255) are not followed.
    static let epsilon: Float = 0.0016

    let small: (width: Int, height: Int)
    let large: (width: Int, height: Int)
    /// Seven planes at the small size: the means of I, p, I·I and I·p, then a and b, and a scratch.
    private let planes: UnsafeMutableBufferPointer<Float>
    /// Per column of the large size: the small column left of it, right of it, and the weight of the right.
    private let across: [(left: Int32, right: Int32, weight: Float)]
    private let down: [(top: Int, bottom: Int, weight: Float)]
    /// The maps a and b interpolated to one large row's height.
    private let rowA: UnsafeMutableBufferPointer<Float>
    private let rowB: UnsafeMutableBufferPointer<Float>

    init(from small: (width: Int, height: Int), to large: (width: Int, height: Int)) {
        self.small = small
        self.large = large
        planes = .allocate(capacity: 7 * small.width * small.height)
        across = Self.taps(small.width, large.width).map { (Int32($0.0), Int32($0.1), $0.2) }
        down = Self.taps(small.height, large.height)
        rowA = .allocate(capacity: small.width)
        rowB = .allocate(capacity: small.width)
    }

    deinit {
        planes.deallocate()
        rowA.deallocate()
        rowB.deallocate()
    }

    /// Centre-aligned bilinear taps from `count` samples to `size` positions, clamped at the ends.
    private static func taps(_ count: Int, _ size: Int) -> [(Int, Int, Float)] {
        (0..<size).map { index in
            let position = min(max((Double(index) + 0.5) * Double(count) / Double(size) - 0.5, 0), Double(count - 1))
            let left = Int(position)
            return (left, min(left + 1, count - 1), Float(position - Double(left)))
        }
    }

    /// The matte `p` (small, 0…1) with guide `guide` (small reduced luma, 0…1) enlarged along
    /// `luma` (the frame's, large) into `output` (large, `large.width` bytes a row, 0…255).
    func upsample(_ p: UnsafePointer<Float>, guide: UnsafePointer<Float>, luma: Plane, into output: UnsafeMutablePointer<UInt8>) {
        coefficients(p, guide: guide)
        let count = small.width &* small.height, a = planes.baseAddress! + 4 &* count, b = a + count
        let rowA = rowA.baseAddress!, rowB = rowB.baseAddress!, width = small.width
        across.withUnsafeBufferPointer { across in
            for y in 0..<large.height {
                let (top, bottom, weight) = down[y]
                let aTop = a + top &* width, aBottom = a + bottom &* width
                let bTop = b + top &* width, bBottom = b + bottom &* width
                for i in 0..<width {
                    rowA[i] = aTop[i] + weight * (aBottom[i] - aTop[i])
                    rowB[i] = bTop[i] + weight * (bBottom[i] - bTop[i])
                }
                let source = luma.row(y), target = output + y &* large.width
                for x in 0..<large.width {
                    let tap = across[x], left = Int(tap.left), right = Int(tap.right)
                    let slope = rowA[left] + tap.weight * (rowA[right] - rowA[left])
                    let offset = rowB[left] + tap.weight * (rowB[right] - rowB[left])
                    // Slope per luma code (a / 255), output in codes: q·255 = a·Y + 255·b.
                    let value = slope * Float(source[x]) + 255 * offset
                    target[x] = UInt8(min(max(value, 0), 255) + 0.5)
                }
            }
        }
    }

    /// The maps a and b at the small size, box-averaged (planes 4 and 5).
    private func coefficients(_ p: UnsafePointer<Float>, guide: UnsafePointer<Float>) {
        let count = small.width &* small.height, base = planes.baseAddress!
        let meanI = base, meanP = base + count, meanII = meanP + count, meanIP = meanII + count
        let a = meanIP + count, b = a + count, scratch = b + count
        for i in 0..<count {
            meanII[i] = guide[i] * guide[i]
            meanIP[i] = guide[i] * p[i]
        }
        meanI.update(from: guide, count: count)
        meanP.update(from: p, count: count)
        box(meanI, scratch: scratch)
        box(meanP, scratch: scratch)
        box(meanII, scratch: scratch)
        box(meanIP, scratch: scratch)
        for i in 0..<count {
            let variance = meanII[i] - meanI[i] * meanI[i], covariance = meanIP[i] - meanI[i] * meanP[i]
            a[i] = covariance / (variance + Self.epsilon)
            b[i] = meanP[i] - a[i] * meanI[i]
        }
        box(a, scratch: scratch)
        box(b, scratch: scratch)
    }

    /// Replaces the small plane `plane` with its means over boxes of ``radius`` (edges repeated):
    /// running sums across into `scratch`, then down back into `plane`.
    private func box(_ plane: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        let (width, height) = small, r = Self.radius, scale = 1 / Float(2 &* r &+ 1)
        for y in 0..<height {
            Self.runningMeans(plane + y &* width, step: 1, count: width, radius: r, scale: scale, into: scratch + y &* width)
        }
        for x in 0..<width {
            Self.runningMeans(scratch + x, step: width, count: height, radius: r, scale: scale, into: plane + x)
        }
    }

    /// The means of the `2·radius + 1` samples centred on each of `count` samples `step` apart
    /// (indices clamped to the line), written `step` apart.
    @inline(__always)
    private static func runningMeans(_ line: UnsafePointer<Float>, step: Int, count: Int, radius: Int, scale: Float,
                                     into target: UnsafeMutablePointer<Float>) {
        let last = count &- 1
        @inline(__always) func at(_ i: Int) -> Float { line[min(max(i, 0), last) &* step] }
        var sum: Float = 0
        for i in -radius...radius { sum += at(i) }
        for i in 0..<count {
            target[i &* step] = sum * scale
            sum += at(i &+ radius &+ 1) - at(i &- radius)
        }
    }
}
