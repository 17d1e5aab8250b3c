@testable import StyleKit
import Testing

/// The stabiliser on planes of its own: no network, so every case can say what the network painted.
struct StyleStabilizerTests {
    static let count = 64 * 36

    /// Reduced source planes (Y, U, V of `count` floats each) from a pattern and a per-pixel offset.
    struct Source {
        var planes: [Float]

        init(_ value: (Int) -> Float) {
            planes = (0..<StyleStabilizerTests.count).map(value) + Array(repeating: 128, count: 2 * StyleStabilizerTests.count)
        }
    }

    /// `stabilizer`'s picture of `styled` painted from `source`, copied out.
    static func steady(_ stabilizer: StyleStabilizer, _ styled: [Float], _ source: Source, layout: StyleModel.Layout = .planar,
                       restart: Bool = false) -> [Float] {
        source.planes.withUnsafeBufferPointer { planes in
            let y = planes.baseAddress!
            let out = stabilizer.steady(styled, layout: layout, count: count, y: y, u: y + count, v: y + 2 * count, restart: restart)
            return Array(UnsafeBufferPointer(start: out, count: 3 * count))
        }
    }

    /// A painted picture: `base` plus a noise of `amplitude` that `seed` chooses (the same seed, the
    /// same noise).
    static func painted(seed: UInt64, amplitude: Float = 0.1, base: Float = 0.5) -> [Float] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<3 * count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return base + amplitude * (Float(state >> 40) / Float(1 << 24) - 0.5)
        }
    }

    static func meanChange(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Float(a.count)
    }

    static let still = Source { Float($0 % 200) }

    /// A still source painted with new strokes each frame: the picture changes far less than the
    /// strokes do (the flicker is gone), and the first frame is the painted one itself.
    @Test func aStillSourceSettles() {
        let stabilizer = StyleStabilizer()
        var previous = Self.steady(stabilizer, Self.painted(seed: 0), Self.still)
        #expect(previous == Self.painted(seed: 0), "the first frame as painted")
        var raw: Float = 0, steadied: Float = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let picture = Self.steady(stabilizer, Self.painted(seed: seed), Self.still)
            raw += Self.meanChange(Self.painted(seed: seed), Self.painted(seed: seed - 1))
            steadied += Self.meanChange(picture, previous)
            previous = picture
        }
        #expect(steadied < raw * 0.5, "steadied \(steadied) against \(raw)")
    }

    /// Where the source changed by `reach` or more the new strokes are taken as they are: nothing of
    /// the previous picture trails behind what moved; where it did not, the picture holds.
    @Test func whatMovedIsTakenAsPainted() {
        for layout in [StyleModel.Layout.planar, .interleaved] {
            let stabilizer = StyleStabilizer()
            _ = Self.steady(stabilizer, Self.painted(seed: 1, base: 0.2), Self.still, layout: layout)
            // The left half of the luma moves by `reach`; the right half stays.
            let moved = Source { Float($0 % 200) + ($0 % 64 < 32 ? StyleStabilizer.reach : 0) }
            let painted = Self.painted(seed: 2, base: 0.8)
            let picture = Self.steady(stabilizer, painted, moved, layout: layout)
            for pixel in [0, 31, 64 * 20 + 5] {
                for channel in 0..<3 {
                    let k = layout == .planar ? pixel + channel * Self.count : 3 * pixel + channel
                    #expect(picture[k] == painted[k], "\(layout) pixel \(pixel) moved: as painted")
                    let still = k + (layout == .planar ? 32 : 96) // the same row, in the right half
                    #expect(abs(picture[still] - painted[still]) > 0.4 * StyleStabilizer.hold, "\(layout) still pixel holds")
                }
            }
        }
    }

    /// A seek or a scene cut starts over: the picture is the painted one, even where a pixel of
    /// the new scene happens to equal the old one.
    @Test func aSeekOrACutStartsOver() {
        let painted = Self.painted(seed: 9, base: 0.9)
        let seek = StyleStabilizer()
        _ = Self.steady(seek, Self.painted(seed: 8, base: 0.1), Self.still)
        #expect(Self.steady(seek, painted, Self.still, restart: true) == painted)

        let cut = StyleStabilizer()
        _ = Self.steady(cut, Self.painted(seed: 8, base: 0.1), Self.still)
        // Another scene: most pixels far off, one in ten the same as before.
        let other = Source { $0 % 10 == 0 ? Float($0 % 200) : 255 - Float($0 % 200) / 4 }
        #expect(Self.steady(cut, painted, other) == painted)
    }

    /// The same frames in the same order give the same pictures.
    @Test func deterministic() {
        func run() -> [[Float]] {
            let stabilizer = StyleStabilizer()
            return (0..<4 as Range<UInt64>).map { seed in
                Self.steady(stabilizer, Self.painted(seed: seed), Source { Float(($0 + Int(seed) * 3) % 200) })
            }
        }
        #expect(run() == run())
    }
}
