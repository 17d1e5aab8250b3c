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
    private let across: [(left: Int, right: Int, weight: Float)]
    private let down: [(top: Int, bottom: Int, weight: Float)]
    /// The maps a and b enlarged across (every small row at the large width): each large row is
    /// then a blend of two of these rows, a loop the compiler vectorises, where a gather per
    /// pixel cost 10 ms at 720p.
    private let wide: UnsafeMutableBufferPointer<Float>

    init(from small: (width: Int, height: Int), to large: (width: Int, height: Int)) {
        self.small = small
        self.large = large
        planes = .allocate(capacity: 7 * small.width * small.height)
        across = Self.taps(small.width, large.width)
        down = Self.taps(small.height, large.height)
        wide = .allocate(capacity: 2 * small.height * large.width)
    }

    deinit {
        planes.deallocate()
        wide.deallocate()
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
        widen()
        let width = large.width, wideA = wide.baseAddress!, wideB = wideA + small.height &* width
        for y in 0..<large.height {
            let (top, bottom, weight) = down[y]
            let aTop = wideA + top &* width, aBottom = wideA + bottom &* width
            let bTop = wideB + top &* width, bBottom = wideB + bottom &* width
            let source = luma.row(y), target = output + y &* width
            for x in 0..<width {
                let slope = aTop[x] + weight * (aBottom[x] - aTop[x]), offset = bTop[x] + weight * (bBottom[x] - bTop[x])
                // Slope per luma code (a / 255), output in codes: q·255 = a·Y + 255·b.
                let value = slope * Float(source[x]) + 255 * offset
                target[x] = Self.rounded(min(max(value, 0), 255))
            }
        }
    }

    /// `value` (0…255) rounded to the nearest code, without the checked conversion that keeps the
    /// loop from being vectorised: added to 2²³, a float's last mantissa bit is 1, so its low byte
    /// is the rounded value (ties to even).
    @inline(__always)
    static func rounded(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (value + 8_388_608).bitPattern)
    }

    /// The small maps a and b (planes 4 and 5) enlarged across into ``wide``.
    private func widen() {
        let count = small.width &* small.height, maps = planes.baseAddress! + 4 &* count
        let width = large.width, target = wide.baseAddress!
        across.withUnsafeBufferPointer { across in
            for row in 0..<(2 &* small.height) {
                let line = maps + row &* small.width, out = target + row &* width
                for x in 0..<width {
                    let tap = across[x]
                    out[x] = line[tap.left] + tap.weight * (line[tap.right] - line[tap.left])
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
