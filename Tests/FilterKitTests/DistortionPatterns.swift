import Foundation
import FilterKit

/// Test pictures and an independent floating-point model of the distortions' resampling.
extension Frame {
    /// Grey frame whose luma is `value(dx, dy)` at each pixel centre's offset from `center`
    /// (luma pixel coordinates), rounded and clamped to 8 bits.
    static func pattern(width: Int, height: Int, center: (x: Double, y: Double),
                        _ value: (_ dx: Double, _ dy: Double) -> Double) -> Frame {
        let frame = filled(width: width, height: height, y: 0)
        for y in 0..<height {
            for x in 0..<width {
                let v = value(Double(x) + 0.5 - center.x, Double(y) + 0.5 - center.y)
                frame.y[x, y] = UInt8(Swift.max(0, Swift.min(255, v.rounded())))
            }
        }
        return frame
    }

    /// Concentric rings around `center`, 24 pixels apart: unchanged by turning about the centre.
    static func rings(width: Int, height: Int, center: (x: Double, y: Double)) -> Frame {
        pattern(width: width, height: height, center: center) { dx, dy in
            128 + 100 * cos(2 * .pi * (dx * dx + dy * dy).squareRoot() / 24)
        }
    }

    /// Four bright and four dark spokes from `center`: unchanged by scaling about the centre.
    static func spokes(width: Int, height: Int, center: (x: Double, y: Double)) -> Frame {
        pattern(width: width, height: height, center: center) { dx, dy in 128 + 100 * cos(4 * atan2(dy, dx)) }
    }
}

/// What a distortion should output, computed in floating point straight from its definition:
/// each moved sample is the bilinear interpolation, with clamped edges, of the source plane at
/// the mapped position. `map` takes and returns luma pixel coordinates; nil leaves the sample.
/// A chroma sample `c` sits at luma coordinate `2 (c + 0.5)`.
func expectedRemap(of frame: Frame, map: (_ x: Double, _ y: Double) -> (x: Double, y: Double)?) -> Frame {
    let result = frame.clone()
    for (plane, output, scale) in [(frame.y, result.y, 1.0), (frame.u, result.u, 2.0), (frame.v, result.v, 2.0)] {
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                guard let source = map(scale * (Double(x) + 0.5), scale * (Double(y) + 0.5)) else { continue }
                output[x, y] = bilinear(plane, x: source.x / scale - 0.5, y: source.y / scale - 0.5)
            }
        }
    }
    return result
}

private func bilinear(_ plane: Plane, x: Double, y: Double) -> UInt8 {
    let x = Swift.max(0, Swift.min(Double(plane.width - 1), x)), y = Swift.max(0, Swift.min(Double(plane.height - 1), y))
    let x0 = Int(x), y0 = Int(y)
    let x1 = Swift.min(x0 + 1, plane.width - 1), y1 = Swift.min(y0 + 1, plane.height - 1)
    let fx = x - Double(x0), fy = y - Double(y0)
    let top = Double(plane[x0, y0]) * (1 - fx) + Double(plane[x1, y0]) * fx
    let bottom = Double(plane[x0, y1]) * (1 - fx) + Double(plane[x1, y1]) * fx
    return UInt8((top * (1 - fy) + bottom * fy).rounded())
}

/// The largest difference between two same-sized frames' samples, over all planes.
func maxDifference(_ a: Frame, _ b: Frame) -> Int {
    zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
