import FilterKit
import Foundation
import MediaKit

/// Peak signal-to-noise ratio in dB between two 8-bit images of the same size and layout
/// (infinity when they are identical).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty, "PSNR needs two images of the same size")
    var sum = 0.0
    for i in a.indices {
        let d = Double(Int(a[i]) - Int(b[i]))
        sum += d * d
    }
    guard sum > 0 else { return .infinity }
    let mse = sum / Double(a.count)
    return 10 * log10(255 * 255 / mse)
}

/// PSNR rounded to 0.01 dB, for printing.
func formatted(_ value: Double) -> String {
    value.isInfinite ? "inf" : String(format: "%.2f", value)
}

extension Plane {
    /// The samples row by row, without the row padding.
    var bytes: [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(width * height)
        for y in 0..<height {
            result.append(contentsOf: UnsafeBufferPointer(start: row(y), count: width))
        }
        return result
    }
}

/// `frame` as the browser would see it: JPEG-encoded by ``JPEGEncoder`` at `quality`, written
/// to `name` in the test directory, then decoded to RGB24 by the ffmpeg CLI.
func rgbThroughJPEG(_ frame: Frame, quality: Int = 90, name: String) throws -> [UInt8] {
    let encoder = try JPEGEncoder(width: frame.width, height: frame.height, quality: quality)
    let path = TestClips.path(name)
    try Data(encoder.encode(frame)).write(to: URL(fileURLWithPath: path))
    return try TestClips.decodeToRGB(path)
}
