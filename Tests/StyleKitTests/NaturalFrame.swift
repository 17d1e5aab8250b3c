import FilterKit
import Foundation

/// A photograph from Debian's opencv-doc as a frame (full-range YUV 4:2:0, as sources make them),
/// scaled by the ffmpeg CLI.
func naturalFrame(width: Int, height: Int, photo: String = "fruits.jpg") throws -> Frame {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = ["-v", "error", "-i", "/usr/share/doc/opencv-doc/examples/data/\(photo)",
                         "-vf", "scale=\(width):\(height):flags=area,format=yuvj420p", "-f", "rawvideo", "-"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    let frame = Frame(width: width, height: height)
    var offset = 0
    for plane in frame.planes {
        precondition(bytes.count >= offset + plane.width * plane.height, "ffmpeg gave \(bytes.count) bytes")
        for row in 0..<plane.height {
            bytes.withUnsafeBufferPointer { plane.row(row).update(from: $0.baseAddress! + offset, count: plane.width) }
            offset += plane.width
        }
    }
    return frame
}

/// The frame's samples, plane after plane, row after row (no padding).
func samples(_ frame: Frame) -> [UInt8] {
    frame.planes.flatMap { plane in (0..<plane.height).flatMap { Array(UnsafeBufferPointer(start: plane.row($0), count: plane.width)) } }
}

/// The mean absolute difference of two sample arrays of one length.
func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
}

/// The `width × height` window of `frame` at (`x`, `y`) (even, so that chroma follows), as a frame
/// of its own: a camera panning over a photograph.
func window(of frame: Frame, x: Int, y: Int, width: Int, height: Int) -> Frame {
    precondition(x % 2 == 0 && y % 2 == 0 && x + width <= frame.width && y + height <= frame.height, "window at \(x),\(y)")
    let part = Frame(width: width, height: height)
    for (plane, whole) in zip(part.planes, frame.planes) {
        let (left, top) = plane.width == width ? (x, y) : (x / 2, y / 2)
        for row in 0..<plane.height { plane.row(row).update(from: whole.row(top + row) + left, count: plane.width) }
    }
    return part
}
