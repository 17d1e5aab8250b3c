import FilterKit
import Foundation
import Synchronization

/// How close the frames of one run are to those of a reference run of the same frames, by their
/// luma: the first run keeps each frame's (``keep(_:)``), the second compares each of its frames
/// with the one kept at the same place (``compare(_:)``). Each pair gets a PSNR (dB over the
/// whole plane, at most 100) and an SSIM (Wang et al. 2004: 8×8 windows stepped by 4, the 8-bit
/// constants, as FFmpeg's `ssim` filter); ``result`` gives their medians. For `bench
/// --against-per-frame`: a style that follows the picture with a lag against every frame's own.
///
/// Safe from any thread (a benchmark calls it from its filter thread); outside the stages' times.
public final class LumaComparison: Sendable {
    /// The medians over the pairs, the worst PSNR, and how many pairs.
    public struct Result: Sendable, Codable {
        public var psnr: Double
        public var worstPSNR: Double
        public var ssim: Double
        public var pairs: Int
    }

    private struct State {
        var kept: [[UInt8]] = []
        var compared = 0
        var psnr: [Double] = []
        var ssim: [Double] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Keeps a copy of `luma`, the next frame of the first run.
    public func keep(_ luma: Plane) {
        var copy = [UInt8](repeating: 0, count: luma.width * luma.height)
        copy.withUnsafeMutableBufferPointer { copy in
            for row in 0..<luma.height {
                (copy.baseAddress! + row * luma.width).update(from: luma.row(row), count: luma.width)
            }
        }
        state.withLock { $0.kept.append(copy) }
    }

    /// Compares `luma`, the next frame of the reference run, with the frame kept at its place
    /// (nothing when the first run kept fewer frames).
    public func compare(_ luma: Plane) {
        state.withLock { state in
            guard state.compared < state.kept.count else { return }
            let kept = state.kept[state.compared]
            state.compared += 1
            guard kept.count == luma.width * luma.height else { return }
            kept.withUnsafeBufferPointer { kept in
                state.psnr.append(Self.psnr(kept, luma))
                state.ssim.append(Self.ssim(kept, luma))
            }
        }
    }

    /// The medians so far; nil before a pair.
    public var result: Result? {
        state.withLock { state in
            guard !state.psnr.isEmpty else { return nil }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            return Result(psnr: median(state.psnr), worstPSNR: state.psnr.min()!, ssim: median(state.ssim),
                          pairs: state.psnr.count)
        }
    }

    /// 10·log10(255² / the mean squared difference), at most 100 (identical planes).
    static func psnr(_ kept: UnsafeBufferPointer<UInt8>, _ luma: Plane) -> Double {
        var sum = 0
        for row in 0..<luma.height {
            let line = luma.row(row), old = kept.baseAddress! + row &* luma.width
            for x in 0..<luma.width {
                let difference = Int(line[x]) &- Int(old[x])
                sum &+= difference &* difference
            }
        }
        guard sum > 0 else { return 100 }
        return min(100, 10 * log10(255 * 255 / (Double(sum) / Double(luma.width * luma.height))))
    }

    /// The mean SSIM of the 8×8 windows stepped by 4; 1 for a plane too small for a window.
    static func ssim(_ kept: UnsafeBufferPointer<UInt8>, _ luma: Plane) -> Double {
        let c1 = 0.01 * 255 * 0.01 * 255, c2 = 0.03 * 255 * 0.03 * 255
        var total = 0.0, windows = 0
        for top in stride(from: 0, through: luma.height - 8, by: 4) {
            for left in stride(from: 0, through: luma.width - 8, by: 4) {
                var a = 0, b = 0, aa = 0, bb = 0, ab = 0
                for row in top..<top + 8 {
                    let line = luma.row(row), old = kept.baseAddress! + row &* luma.width
                    for x in left..<left + 8 {
                        let p = Int(old[x]), q = Int(line[x])
                        a &+= p; b &+= q; aa &+= p &* p; bb &+= q &* q; ab &+= p &* q
                    }
                }
                let n = 64.0, ma = Double(a) / n, mb = Double(b) / n
                let va = Double(aa) / n - ma * ma, vb = Double(bb) / n - mb * mb, cov = Double(ab) / n - ma * mb
                total += (2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                windows += 1
            }
        }
        return windows == 0 ? 1 : total / Double(windows)
    }
}
