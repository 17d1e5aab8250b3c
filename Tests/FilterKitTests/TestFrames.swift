import FilterKit

/// SplitMix64 (Steele, Lea & Flood): a tiny deterministic generator, so that "random" frames
/// are the same on every run and every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A frame size, named in test output as `WxH`.
struct Size: Sendable, Hashable, CustomStringConvertible {
    let width: Int
    let height: Int

    init(_ width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    var description: String { "\(width)x\(height)" }

    /// Odd and even sizes small enough for exhaustive checks.
    static let testSizes = [Size(17, 11), Size(8, 8), Size(7, 5), Size(1, 1), Size(2, 3)]
}

extension Frame {
    /// A frame with every sample of each plane set to one value.
    static func filled(width: Int, height: Int, y: UInt8, u: UInt8 = 128, v: UInt8 = 128) -> Frame {
        let frame = Frame(width: width, height: height)
        frame.y.fill(y)
        frame.u.fill(u)
        frame.v.fill(v)
        return frame
    }

    /// Grey frame whose luma is `left` in columns `0..<width/2` and `right` from `width/2` on.
    static func verticalStep(width: Int, height: Int, left: UInt8, right: UInt8) -> Frame {
        let frame = filled(width: width, height: height, y: left)
        for row in 0..<height {
            for x in (width / 2)..<width { frame.y[x, row] = right }
        }
        return frame
    }

    /// Grey frame whose luma is `top` in rows `0..<height/2` and `bottom` from `height/2` on.
    static func horizontalStep(width: Int, height: Int, top: UInt8, bottom: UInt8) -> Frame {
        let frame = filled(width: width, height: height, y: top)
        for row in (height / 2)..<height { frame.y.row(row).update(repeating: bottom, count: width) }
        return frame
    }

    /// Every sample of every plane drawn from SplitMix64(`seed`).
    static func random(width: Int, height: Int, seed: UInt64) -> Frame {
        var generator = SplitMix64(seed: seed)
        let frame = Frame(width: width, height: height)
        for plane in frame.planes {
            for row in 0..<plane.height {
                for x in 0..<plane.width { plane[x, row] = UInt8.random(in: 0...255, using: &generator) }
            }
        }
        return frame
    }

    /// A new frame with the same size, samples and timing.
    func clone() -> Frame {
        let copy = Frame(width: width, height: height)
        copy.copy(from: self)
        return copy
    }

    /// The visible samples of the three planes, luma first, row by row (no padding).
    var samples: [UInt8] { planes.flatMap(\.samples) }
}

extension Plane {
    subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "sample (\(x), \(y)) outside \(width)x\(height)")
            return row(y)[x]
        }
        nonmutating set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "sample (\(x), \(y)) outside \(width)x\(height)")
            row(y)[x] = newValue
        }
    }

    /// The visible samples, row by row.
    var samples: [UInt8] {
        (0..<height).flatMap { y in Array(UnsafeBufferPointer(start: row(y), count: width)) }
    }
}

/// Builds settings that the tests know to be valid; a validation failure is a test failure.
func settings(_ name: String, _ parameters: [String: Double] = [:]) throws -> FilterSettings {
    try FilterSettings(name: name, parameters: parameters)
}
