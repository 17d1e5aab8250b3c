import Testing
import FilterKit

extension ColorConverter {
    /// Converts the planes of `source` (which may be `frame` itself) into `frame`.
    func convert(_ source: Frame, into frame: Frame) {
        convert(y: source.y.base, yStride: source.y.stride,
                u: source.u.base, uStride: source.u.stride,
                v: source.v.base, vStride: source.v.stride,
                into: frame)
    }
}

extension ColorSpace.Matrix {
    /// (Kr, Kb) from the standards, written out here independently of the converter.
    var kr: Double { switch self { case .bt601: 0.299; case .bt709: 0.2126; case .bt2020: 0.2627 } }
    var kb: Double { switch self { case .bt601: 0.114; case .bt709: 0.0722; case .bt2020: 0.0593 } }
    var kg: Double { 1 - kr - kb }
}

/// A colour with R, G, B in 0…1.
struct RGB: Sendable, CustomStringConvertible {
    let r: Double, g: Double, b: Double
    let name: String

    init(_ name: String, _ r: Double, _ g: Double, _ b: Double) {
        self.name = name
        self.r = r
        self.g = g
        self.b = b
    }

    var description: String { name }

    static let samples = [
        RGB("red", 1, 0, 0), RGB("green", 0, 1, 0), RGB("blue", 0, 0, 1),
        RGB("cyan", 0, 1, 1), RGB("magenta", 1, 0, 1), RGB("yellow", 1, 1, 0),
        RGB("white", 1, 1, 1), RGB("black", 0, 0, 0), RGB("orange", 1, 0.5, 0),
        RGB("skin", 0.8, 0.6, 0.5), RGB("navy", 0.1, 0.1, 0.4), RGB("olive", 0.5, 0.5, 0.1),
    ]
}

/// Reference maths in Double, straight from the definitions of Y′CbCr.
enum Reference {
    /// `rgb` encoded in `space`, each sample rounded to 8 bits as a decoder would output it.
    static func encode(_ rgb: RGB, in space: ColorSpace) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let m = space.matrix
        let y = m.kr * rgb.r + m.kg * rgb.g + m.kb * rgb.b          // 0…1
        let pb = (rgb.b - y) / (2 * (1 - m.kb))                       // −0.5…0.5
        let pr = (rgb.r - y) / (2 * (1 - m.kr))
        let (ys, cs, yo) = space.range == .limited ? (219.0, 224.0, 16.0) : (255.0, 255.0, 0.0)
        return (clamp(yo + ys * y), clamp(128 + cs * pb), clamp(128 + cs * pr))
    }

    /// 8-bit samples in `space` decoded to R, G, B (nominally 0…1, not clipped).
    static func decode(y: UInt8, cb: UInt8, cr: UInt8, in space: ColorSpace) -> (r: Double, g: Double, b: Double) {
        let m = space.matrix
        let (ys, cs, yo) = space.range == .limited ? (219.0, 224.0, 16.0) : (255.0, 255.0, 0.0)
        let luma = (Double(y) - yo) / ys
        let pb = (Double(cb) - 128) / cs, pr = (Double(cr) - 128) / cs
        let r = luma + 2 * (1 - m.kr) * pr
        let b = luma + 2 * (1 - m.kb) * pb
        let g = (luma - m.kr * r - m.kb * b) / m.kg
        return (r, g, b)
    }

    /// The frame format (full-range BT.601) of `source` samples, unrounded.
    static func toFrameFormat(y: UInt8, cb: UInt8, cr: UInt8, from space: ColorSpace) -> (y: Double, cb: Double, cr: Double) {
        let (r, g, b) = decode(y: y, cb: cb, cr: cr, in: space)
        let luma = 0.299 * r + 0.587 * g + 0.114 * b
        return (255 * luma, 128 + 255 * (b - luma) / 1.772, 128 + 255 * (r - luma) / 1.402)
    }

    static func clamp(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }

    /// Whether `sample` is `exact` (clipped to 0…255) correctly rounded, allowing for the
    /// converter's 1/64 fixed-point tables: at most 0.5 + 2/64 away. That is within ±1 of
    /// `clamp(exact)`, and tight enough that truncating instead of rounding fails.
    static func isRounded(_ sample: UInt8, _ exact: Double) -> Bool {
        abs(Double(sample) - min(255, max(0, exact))) <= 0.5 + 2.0 / 64
    }
}

@Suite("ColorConverter")
struct ColorConverterTests {
    static let allSpaces: [ColorSpace] = [.limited, .full].flatMap { range in
        [ColorSpace.Matrix.bt601, .bt709, .bt2020].map { ColorSpace(range: range, matrix: $0) }
    }
    static let convertingSpaces = allSpaces.filter { $0 != .jpeg }

    @Test("Only full-range BT.601 (the frame format) is an identity")
    func identityFlag() {
        #expect(ColorSpace.jpeg == ColorSpace(range: .full, matrix: .bt601))
        #expect(ColorConverter(from: .jpeg).isIdentity)
        for space in Self.convertingSpaces {
            #expect(!ColorConverter(from: space).isIdentity, "\(space)")
        }
        #expect(ColorSpace(range: .limited, matrix: .bt709).description == "limited-range bt709")
        #expect(ColorSpace.jpeg.description == "full-range bt601")
    }

    @Test("From .jpeg is a byte-for-byte copy", arguments: Size.testSizes)
    func jpegIsACopy(size: Size) {
        let source = Frame.random(width: size.width, height: size.height, seed: 11)
        let output = Frame.filled(width: size.width, height: size.height, y: 0, u: 0, v: 0)
        let converter = ColorConverter(from: .jpeg)
        converter.convert(source, into: output)
        #expect(output.samples == source.samples)

        let inPlace = source.clone()
        converter.convert(inPlace, into: inPlace)
        #expect(inPlace.samples == source.samples)
    }

    @Test("Neutral chroma (128) stays exactly 128", arguments: allSpaces)
    func neutralChromaStaysNeutral(space: ColorSpace) {
        let source = Frame.random(width: 17, height: 11, seed: 3)
        source.u.fill(128)
        source.v.fill(128)
        let output = Frame(width: 17, height: 11)
        ColorConverter(from: space).convert(source, into: output)
        #expect(output.u.samples.allSatisfy { $0 == 128 })
        #expect(output.v.samples.allSatisfy { $0 == 128 })
    }

    @Test("Full range with neutral chroma keeps luma exactly, whatever the matrix",
          arguments: [ColorSpace.Matrix.bt601, .bt709, .bt2020])
    func fullRangeGreyKeepsLuma(matrix: ColorSpace.Matrix) {
        let source = lumaRamp()
        let output = Frame(width: source.width, height: source.height)
        ColorConverter(from: ColorSpace(range: .full, matrix: matrix)).convert(source, into: output)
        #expect(output.y.samples == source.y.samples)
    }

    @Test("Limited-range luma expands 16…235 to 0…255", arguments: [ColorSpace.Matrix.bt601, .bt709, .bt2020])
    func limitedRangeLuma(matrix: ColorSpace.Matrix) {
        let source = lumaRamp()
        let output = Frame(width: source.width, height: source.height)
        ColorConverter(from: ColorSpace(range: .limited, matrix: matrix)).convert(source, into: output)
        for row in 0..<source.height {
            for x in 0..<256 {
                let exact = (Double(x) - 16) * 255 / 219
                let got = output.y[x, row]
                #expect(Reference.isRounded(got, exact), "Y=\(x) → \(got), exact \(exact)")
            }
        }
        #expect(output.y[16, 0] == 0)
        #expect(output.y[235, 0] == 255)
        #expect(abs(Int(output.y[126, 0]) - 128) <= 1)
        // Out-of-range "footroom" and "headroom" codes clip.
        #expect((0...16).allSatisfy { output.y[$0, 1] == 0 })
        #expect((235...255).allSatisfy { output.y[$0, 1] == 255 })
        // Still monotonic after rounding.
        let row = output.y.samples.prefix(256)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("Limited-range chroma expands 16…240 to 0…255")
    func limitedRangeChroma() {
        // 512×2 luma, so the chroma planes are 256×1: Cb ramps up, Cr ramps down.
        let source = Frame.filled(width: 512, height: 2, y: 126)
        for x in 0..<256 {
            source.u[x, 0] = UInt8(x)
            source.v[x, 0] = UInt8(255 - x)
        }
        let output = Frame(width: 512, height: 2)
        ColorConverter(from: ColorSpace(range: .limited, matrix: .bt601)).convert(source, into: output)
        for x in 0..<256 {
            let exactCb = 128 + (Double(x) - 128) * 255 / 224
            let exactCr = 128 + (Double(255 - x) - 128) * 255 / 224
            #expect(Reference.isRounded(output.u[x, 0], exactCb), "Cb=\(x) → \(output.u[x, 0]), exact \(exactCb)")
            #expect(Reference.isRounded(output.v[x, 0], exactCr), "Cr=\(255 - x) → \(output.v[x, 0]), exact \(exactCr)")
        }
        #expect(output.u[16, 0] <= 1)
        #expect(output.u[240, 0] >= 254)
        #expect(output.u[128, 0] == 128)
        #expect(output.v[255 - 16, 0] <= 1)
        #expect(output.v[255 - 240, 0] >= 254)
        // Same matrix: luma gets no chroma offset.
        #expect(output.y.samples.allSatisfy { abs(Int($0) - 128) <= 1 })
    }

    @Test("A pure colour matches the Double maths (source → RGB → full-range BT.601) within ±1",
          arguments: [ColorSpace(range: .limited, matrix: .bt709), ColorSpace(range: .full, matrix: .bt709),
                      ColorSpace(range: .limited, matrix: .bt2020), ColorSpace(range: .limited, matrix: .bt601)],
          RGB.samples)
    func pureColour(space: ColorSpace, colour: RGB) {
        let encoded = Reference.encode(colour, in: space)
        let expected = Reference.toFrameFormat(y: encoded.y, cb: encoded.cb, cr: encoded.cr, from: space)

        for size in [Size(4, 4), Size(5, 3)] {
            let source = Frame.filled(width: size.width, height: size.height, y: encoded.y, u: encoded.cb, v: encoded.cr)
            let output = Frame(width: size.width, height: size.height)
            ColorConverter(from: space).convert(source, into: output)
            let context = "\(colour) in \(space): YCbCr \(encoded) → \(output.y[0, 0]),\(output.u[0, 0]),\(output.v[0, 0]); exact \(expected)"
            #expect(output.y.samples.allSatisfy { Reference.isRounded($0, expected.y) }, "\(context)")
            #expect(output.u.samples.allSatisfy { Reference.isRounded($0, expected.cb) }, "\(context)")
            #expect(output.v.samples.allSatisfy { Reference.isRounded($0, expected.cr) }, "\(context)")
        }
    }

    @Test("bt709 → bt601 actually changes colours (the matrix is not ignored)")
    func matrixChangeIsApplied() {
        let space = ColorSpace(range: .full, matrix: .bt709)
        let encoded = Reference.encode(RGB("red", 1, 0, 0), in: space)
        let source = Frame.filled(width: 2, height: 2, y: encoded.y, u: encoded.cb, v: encoded.cr)
        let output = Frame(width: 2, height: 2)
        ColorConverter(from: space).convert(source, into: output)
        // Pure red has Y = 0.2126 × 255 ≈ 54 in BT.709 and 0.299 × 255 ≈ 76 in BT.601.
        #expect(encoded.y == 54)
        #expect(abs(Int(output.y[0, 0]) - 76) <= 1)
    }

    @Test("In place gives the same result as out of place", arguments: allSpaces, Size.testSizes)
    func inPlaceMatchesOutOfPlace(space: ColorSpace, size: Size) {
        let source = Frame.random(width: size.width, height: size.height, seed: 0xC0FFEE)
        let converter = ColorConverter(from: space)

        let outOfPlace = Frame(width: size.width, height: size.height)
        converter.convert(source, into: outOfPlace)

        let inPlace = source.clone()
        converter.convert(inPlace, into: inPlace)
        #expect(inPlace.samples == outOfPlace.samples)
    }

    @Test("Source strides need not match the frame's", arguments: convertingSpaces)
    func packedSourceRows(space: ColorSpace) {
        let width = 17, height = 11, chromaWidth = 9, chromaHeight = 6
        let frame = Frame.random(width: width, height: height, seed: 5)
        // The same samples, rows packed tightly (stride == width).
        let packedY = frame.y.samples, packedU = frame.u.samples, packedV = frame.v.samples
        #expect(packedU.count == chromaWidth * chromaHeight)

        let converter = ColorConverter(from: space)
        let expected = Frame(width: width, height: height)
        converter.convert(frame, into: expected)
        let output = Frame(width: width, height: height)
        packedY.withUnsafeBufferPointer { y in
            packedU.withUnsafeBufferPointer { u in
                packedV.withUnsafeBufferPointer { v in
                    converter.convert(y: y.baseAddress!, yStride: width, u: u.baseAddress!, uStride: chromaWidth,
                                      v: v.baseAddress!, vStride: chromaWidth, into: output)
                }
            }
        }
        #expect(output.samples == expected.samples)
    }

    /// 256×2 frame whose luma column `x` is `x`, with neutral chroma.
    private func lumaRamp() -> Frame {
        let frame = Frame.filled(width: 256, height: 2, y: 0)
        for row in 0..<2 {
            for x in 0..<256 { frame.y[x, row] = UInt8(x) }
        }
        return frame
    }
}
