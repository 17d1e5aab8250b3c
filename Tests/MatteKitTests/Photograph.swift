import FilterKit
import Foundation
import MediaKit
@testable import MatteKit
import StyleKit

/// The engine of the runtime `make deps` laid out in `.build/openvino`, shared by the tests.
let engine: MatteEngine = {
    guard let root = OpenVINORuntime.defaultRoot(environment: [:]) else { fatalError("make deps lays out .build/openvino") }
    return try! MatteEngine(root: root)
}()

/// A packaged photograph (Debian's opencv-doc) as a frame of `width × height`: decoded and scaled
/// by MediaKit's `StillPicture`, as an uploaded picture is.
func photograph(_ name: String, width: Int, height: Int) throws -> Frame {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data/\(name)"))
    return try StillPicture([UInt8](bytes)).frame(width: width, height: height)
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
