import FilterKit
import MediaKit

/// A picture uploaded as a background (untrusted bytes): it is decoded as one JPEG or PNG, its
/// thumbnail and bounded copy made, and frames of two shapes cut from the copy to cover them — or
/// it is refused with a reason.
func fuzzKeptPicture(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let kept = try KeptPicture(bytes)
        precondition(["JPEG", "PNG"].contains(kept.format), "format \(kept.format)")
        let copy = try? StillPicture(kept.copy)
        precondition(copy.map { max($0.width, $0.height) <= KeptPicture.maximumSide } == true, "the copy kept decodes within bounds")
        for (width, height) in [(64, 36), (48, 64)] {
            let frame = kept.frame(width: width, height: height)
            precondition(frame?.width == width && frame?.height == height, "frame size")
        }
    } catch {
        precondition(!error.description.isEmpty, "a refusal without a reason")
    }
    return 0
}
