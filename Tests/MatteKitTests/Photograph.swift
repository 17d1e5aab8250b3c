import FilterKit
import Foundation
@testable import MatteKit
import StyleKit

/// The engine of the runtime `make deps` laid out in `.build/openvino`, shared by the tests.
let engine: MatteEngine = {
    guard let root = OpenVINORuntime.defaultRoot(environment: [:]) else { fatalError("make deps lays out .build/openvino") }
    return try! MatteEngine(root: root)
}()

/// A packaged photograph (Debian's opencv-doc) decoded and scaled by the ffmpeg CLI to
/// `width × height`, as full-range YUV 4:2:0 — the frames sources make.
func photograph(_ name: String, width: Int, height: Int) throws -> Frame {
    let ffmpeg = Process()
    ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    ffmpeg.arguments = ["-v", "error", "-i", "/usr/share/doc/opencv-doc/examples/data/\(name)",
                        "-vf", "scale=\(width):\(height):flags=bicubic,format=yuvj420p", "-f", "rawvideo", "-"]
    let output = Pipe()
    ffmpeg.standardOutput = output
    try ffmpeg.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    ffmpeg.waitUntilExit()
    let frame = Frame(width: width, height: height)
    let planes = frame.planes
    precondition(data.count == planes.reduce(0) { $0 + $1.width * $1.height }, "ffmpeg gave \(data.count) bytes")
    data.withUnsafeBytes { raw in
        var source = raw.bindMemory(to: UInt8.self).baseAddress!
        for plane in planes {
            for row in 0..<plane.height {
                plane.row(row).update(from: source, count: plane.width)
                source += plane.width
            }
        }
    }
    return frame
}

/// The mean of the samples of `plane` in the box of fractions `x` and `y` of its width and height.
func mean(_ plane: UnsafePointer<UInt8>, width: Int, height: Int, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double {
    let columns = Int(x.lowerBound * Double(width))..<Int(x.upperBound * Double(width))
    let rows = Int(y.lowerBound * Double(height))..<Int(y.upperBound * Double(height))
    var total = 0
    for row in rows { for column in columns { total += Int(plane[row * width + column]) } }
    return Double(total) / Double(rows.count * columns.count)
}

/// The frame's luma, packed.
func luma(_ frame: Frame) -> [UInt8] {
    (0..<frame.height).flatMap { Array(UnsafeBufferPointer(start: frame.y.row($0), count: frame.width)) }
}
