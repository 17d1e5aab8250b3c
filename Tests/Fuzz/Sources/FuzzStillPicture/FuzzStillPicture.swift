import FilterKit
import MediaKit

/// A picture uploaded as a style on any bytes (untrusted): it is decoded as one JPEG or PNG with
/// sides within bounds and cut at a style's and a thumbnail's shapes, or refused with a reason.
func fuzzStillPicture(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let picture = try StillPicture(bytes)
        let sides = StillPicture.minimumSide...StillPicture.maximumSide
        precondition(sides.contains(picture.width) && sides.contains(picture.height), "\(picture.width)x\(picture.height) taken")
        precondition(["JPEG", "PNG"].contains(picture.format), "format \(picture.format)")
        for (width, height) in [(256, 256), (192, 112)] {
            let frame = picture.frame(width: width, height: height)
            precondition(frame.width == width && frame.height == height, "frame size")
        }
    } catch {
        precondition(!error.description.isEmpty, "a refusal without a reason")
    }
    return 0
}
