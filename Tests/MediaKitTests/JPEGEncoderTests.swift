import CTurboJPEG
import FilterKit
import Foundation
import MediaKit
import Testing

/// What TurboJPEG reads from a JPEG's header.
struct JPEGHeader: Equatable {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = -1
    var colorspace: Int32 = -1
}

func readHeader(_ jpeg: [UInt8]) throws -> JPEGHeader {
    let handle = try #require(tjInitDecompress())
    defer { tjDestroy(handle) }
    var header = JPEGHeader()
    let result = tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &header.width, &header.height,
                                     &header.subsampling, &header.colorspace)
    try #require(result == 0, "tjDecompressHeader3: \(String(cString: tjGetErrorStr2(handle)))")
    return header
}

/// Decodes `jpeg` with TurboJPEG into planar YUV of `width × height` (luma, then the two chroma planes).
func decodeToPlanes(_ jpeg: [UInt8], width: Int, height: Int) throws -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
    let handle = try #require(tjInitDecompress())
    defer { tjDestroy(handle) }
    let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
    var y = [UInt8](repeating: 0, count: width * height)
    var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
    var v = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
    let result = y.withUnsafeMutableBufferPointer { yp in
        u.withUnsafeMutableBufferPointer { up in
            v.withUnsafeMutableBufferPointer { vp in
                var planes: [UnsafeMutablePointer<UInt8>?] = [yp.baseAddress, up.baseAddress, vp.baseAddress]
                var strides: [Int32] = [Int32(width), Int32(chromaWidth), Int32(chromaWidth)]
                return tjDecompressToYUVPlanes(handle, jpeg, UInt(jpeg.count), &planes, Int32(width), &strides,
                                               Int32(height), 0)
            }
        }
    }
    try #require(result == 0, "tjDecompressToYUVPlanes: \(String(cString: tjGetErrorStr2(handle)))")
    return (y, u, v)
}

/// A synthetic picture: gradients in all three planes plus a hard-edged box, shifted by `phase`.
func syntheticFrame(width: Int, height: Int, phase: Int = 0) -> Frame {
    let frame = Frame(width: width, height: height)
    for y in 0..<height {
        let row = frame.y.row(y)
        for x in 0..<width {
            let inBox = (x + phase) % 32 < 12 && y % 24 < 10
            row[x] = inBox ? 235 : UInt8(truncatingIfNeeded: (x * 3 + y + phase) % 200 + 20)
        }
    }
    for y in 0..<frame.u.height {
        let u = frame.u.row(y), v = frame.v.row(y)
        for x in 0..<frame.u.width {
            u[x] = UInt8(truncatingIfNeeded: 64 + (x * 2 + phase) % 128)
            v[x] = UInt8(truncatingIfNeeded: 64 + (y * 3 + phase) % 128)
        }
    }
    return frame
}

@Suite("JPEG encoding", .timeLimit(.minutes(3)))
struct JPEGEncoderTests {
    struct Size: Sendable, CustomTestStringConvertible {
        let width: Int
        let height: Int
        var testDescription: String { "\(width)x\(height)" }
    }

    @Test("makes a complete baseline 4:2:0 JPEG of the frame's size",
          arguments: [Size(width: 320, height: 240), Size(width: 17, height: 11), Size(width: 642, height: 362),
                      Size(width: 1, height: 1)])
    func wellFormed(_ size: Size) throws {
        let frame = syntheticFrame(width: size.width, height: size.height)
        let encoder = try JPEGEncoder(width: size.width, height: size.height, quality: 90)
        let jpeg = try encoder.encode(frame)
        #expect(jpeg.starts(with: [0xFF, 0xD8]), "no SOI marker")
        #expect(jpeg.suffix(2) == [0xFF, 0xD9], "no EOI marker")

        let header = try readHeader(jpeg)
        #expect(header.width == Int32(size.width) && header.height == Int32(size.height))
        #expect(header.subsampling == Int32(TJSAMP_420.rawValue))
        #expect(header.colorspace == Int32(TJCS_YCbCr.rawValue))

        // ffmpeg reads it too.
        let path = TestClips.path("encoder-\(size.width)x\(size.height).jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let rgb = try TestClips.decodeToRGB(path)
        #expect(rgb.count == size.width * size.height * 3)
    }

    @Test("the JPEG holds the frame's samples (YUV round trip at quality 95)")
    func roundTrip() throws {
        let source = try InputSpec(parsing: "test:320x240@10").open()
        let frame = Frame(width: 320, height: 240)
        #expect(try source.read(into: frame))
        let encoder = try JPEGEncoder(width: 320, height: 240, quality: 95)
        let decoded = try decodeToPlanes(try encoder.encode(frame), width: 320, height: 240)
        let values = [psnr(frame.y.bytes, decoded.y), psnr(frame.u.bytes, decoded.u), psnr(frame.v.bytes, decoded.v)]
        print("JPEG q95 round trip of the test pattern, Y/Cb/Cr PSNR: \(values.map(formatted)) dB")
        #expect(values.allSatisfy { $0 >= 38 }, "\(values.map(formatted))")
    }

    @Test("a flat colour decodes to the JFIF (full-range BT.601) RGB value")
    func flatColour() throws {
        let frame = Frame(width: 64, height: 48)
        frame.y.fill(100)
        frame.u.fill(150)
        frame.v.fill(90)
        let path = TestClips.path("flat.jpg")
        try Data(try JPEGEncoder(width: 64, height: 48, quality: 95).encode(frame)).write(to: URL(fileURLWithPath: path))
        let rgb = try TestClips.decodeToRGB(path)
        try #require(rgb.count == 64 * 48 * 3)
        // R = Y + 1.402 (Cr − 128), G = Y − 0.344136 (Cb − 128) − 0.714136 (Cr − 128), B = Y + 1.772 (Cb − 128).
        let expected = [100 + 1.402 * -38, 100 - 0.344136 * 22 - 0.714136 * -38, 100 + 1.772 * 22]
        let center = (24 * 64 + 32) * 3
        for channel in 0..<3 {
            #expect(abs(Double(rgb[center + channel]) - expected[channel]) <= 3,
                    "channel \(channel): \(rgb[center + channel]), expected \(expected[channel])")
        }
    }

    @Test("one encoder encodes many frames, deterministically")
    func reusedEncoder() throws {
        let source = try InputSpec(parsing: "test:160x120@30").open()
        let frame = Frame(width: 160, height: 120)
        let encoder = try JPEGEncoder(width: 160, height: 120, quality: 80)
        var previous: [UInt8] = []
        for i in 0..<60 {
            #expect(try source.read(into: frame))
            let jpeg = try encoder.encode(frame)
            #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9], "frame \(i)")
            #expect(try readHeader(jpeg).width == 160)
            #expect(jpeg != previous, "frame \(i) encoded like the one before")
            // The same frame again gives the same bytes, and the closure form sees the same bytes.
            #expect(try encoder.encode(frame) == jpeg)
            let viaClosure = try encoder.encode(frame) { Array($0.bindMemory(to: UInt8.self)) }
            #expect(viaClosure == jpeg)
            previous = jpeg
        }
    }

    @Test("lower quality makes smaller files; quality is clamped to 1…100")
    func quality() throws {
        let frame = syntheticFrame(width: 320, height: 240, phase: 5)
        let encoder = try JPEGEncoder(width: 320, height: 240, quality: 1)
        let low = try encoder.encode(frame).count
        encoder.quality = 95
        let high = try encoder.encode(frame).count
        print("JPEG size at quality 1: \(low) bytes, at 95: \(high) bytes")
        #expect(low < high)

        encoder.quality = 0
        #expect(encoder.quality == 1)
        encoder.quality = 500
        #expect(encoder.quality == 100)
        #expect(try JPEGEncoder(width: 8, height: 8, quality: -4).quality == 1)
        #expect(try JPEGEncoder(width: 8, height: 8, quality: 1000).quality == 100)
    }
}
