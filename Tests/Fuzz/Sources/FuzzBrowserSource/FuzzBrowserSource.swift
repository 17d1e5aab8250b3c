import FilterKit
import Glibc
import MediaKit

/// The announced size of the fuzzed camera: small, so that an execution is cheap.
let announced = (width: 64, height: 64)

/// A shared camera's pictures, as `Session.ingest` offers them and the decode thread reads them.
///
/// Input: byte 0 picks the codec (bit 0: H.264, else JPEG), whether all pictures are offered
/// before the first read (bit 1: a burst, so the queue overflows and drops) or each is read at
/// once, and the session size (bit 2: the announced 64x64, else 48x36, through the scaler). The
/// rest is pictures separated by `FCIS`, each a flags byte (bit 0: keyframe) and its bytes.
///
/// The source is read with a zero stall timeout — a read with nothing queued fails at once —
/// until it fails after each offer (each burst). A read fails only for a stall or a picture of
/// another size than announced, never one with a larger side (the decoder allocates none), and the message
/// says so; that picture ends the source: later offers are refused, and after `end(reason:)`
/// the read fails with the size, else with the reason given. Warnings name the camera.
func fuzzBrowserSource(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let mode = input[0]
    let frame = mode & 4 != 0 ? frames.announced : frames.scaled
    let source: BrowserSource
    do {
        source = try BrowserSource(codec: mode & 1 != 0 ? .h264 : .jpeg, name: "fuzz camera", announced: announced,
                                   width: frame.width, height: frame.height, frameRate: 30, stallTimeout: .zero)
    } catch {
        preconditionFailure("the decoder does not open: \(error)")
    }
    source.onWarning = { precondition($0.hasPrefix("fuzz camera: "), "a warning that does not name the camera: \($0)") }
    var time: Int64 = 0, refusal: String?
    for picture in pictures(in: UnsafeRawBufferPointer(rebasing: input.dropFirst())) where picture.count > 1 {
        time += 33_333
        let taken = source.offer(UnsafeRawBufferPointer(rebasing: picture.dropFirst()), keyframe: picture[0] & 1 != 0,
                                 captureTime: time)
        precondition(refusal == nil || !taken, "a source ended by a picture's size took another")
        if mode & 2 == 0 && refusal == nil { refusal = readUntilFailure(source, into: frame) }
    }
    if refusal == nil { refusal = readUntilFailure(source, into: frame) }
    source.end(reason: "the fuzz input ended")
    do {
        _ = try source.read(into: frame)
        preconditionFailure("a read after end(reason:) gave a frame")
    } catch {
        precondition(error.description.hasSuffix(refusal ?? "the fuzz input ended"), "an ended source failed otherwise: \(error)")
    }
    return 0
}

/// One frame a session size, reused: executions do not allocate one each.
private let frames = (announced: Frame(width: announced.width, height: announced.height), scaled: Frame(width: 48, height: 36))

/// Reads frames until a read fails (at once, the stall timeout being zero): nil for a stall
/// (past which the decoder holds no picture back), else the size refusal, checked.
private func readUntilFailure(_ source: BrowserSource, into frame: Frame) -> String? {
    while true {
        do {
            let read = try source.read(into: frame)
            precondition(read, "a read returned false")
        } catch {
            if error.description.hasSuffix("no picture for 0 s") { return nil }
            checkSizeRefusal(error.description)
            precondition(source.endReason.map { error.description.hasSuffix($0) } == true, "a size refusal did not end the source")
            return source.endReason
        }
    }
}

/// A read that fails for a picture's size names it, and neither side is larger than announced
/// (the decoder allocates none larger: the announced sides are whole macroblocks here).
private func checkSizeRefusal(_ reason: String) {
    let prefix = "error reading fuzz camera: its pictures are ", suffix = ", not the 64x64 announced"
    precondition(reason.hasPrefix(prefix) && reason.hasSuffix(suffix), "an unexpected read error: \(reason)")
    let size = reason.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "x").compactMap { Int($0) }
    precondition(size.count == 2 && size != [64, 64] && size[0] <= announced.width && size[1] <= announced.height,
                 "a picture larger than announced was decoded: \(reason)")
}

/// The input's pieces between `FCIS` separators (found by memchr: a byte-wise search would
/// cost more than the decoding of small pictures under the fuzzer's instrumentation).
private func pictures(in bytes: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer] {
    var pieces: [UnsafeRawBufferPointer] = []
    var start = 0, from = 0
    while from + 4 <= bytes.count, let found = memchr(bytes.baseAddress! + from, 0x46, bytes.count - from - 3) {
        let index = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
        if bytes[index + 1] == 0x43 && bytes[index + 2] == 0x49 && bytes[index + 3] == 0x53 {
            pieces.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            start = index + 4
        }
        from = start > index ? start : index + 1
    }
    pieces.append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    return pieces
}
