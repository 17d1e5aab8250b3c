import Glibc
import MediaKit

/// Where each input is written: memory, not the disk.
let path = "/dev/shm/fuzz-upload-\(getpid()).bin"
/// The lowest free descriptor. Compared before and after each inspection, not with the first
/// one: libFuzzer itself keeps descriptors open (the symbolizer's pipes, once it names a new function).
private func lowestFreeDescriptor() -> CInt {
    let descriptor = open("/dev/null", O_RDONLY)
    close(descriptor)
    return descriptor
}

/// One uploaded file, as the server inspects it before listing it. A report names an accepted
/// container, a codec, a picture within ``UploadProbe/maxPixels`` and a positive duration or
/// none; a refusal names the file; no descriptor stays open.
func fuzzUploadProbe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(file >= 0 && write(file, data, size) == size && close(file) == 0, "cannot write \(path)")
    let freeBefore = lowestFreeDescriptor()
    do {
        let report = try UploadProbe.inspect(path: path)
        precondition(!Set(report.container.split(separator: ",").map(String.init)).isDisjoint(with: UploadProbe.containers),
                     "a file in \(report.container) was accepted")
        precondition(report.width > 0 && report.height > 0 && report.width * report.height <= UploadProbe.maxPixels
                     && !report.codec.isEmpty && (report.duration.map { $0.isFinite && $0 > 0 } ?? true), "\(report)")
    } catch {
        precondition(error.description.contains(path), "a refusal that does not name the file: \(error)")
    }
    precondition(lowestFreeDescriptor() == freeBefore, "the inspection left a descriptor open")
    return 0
}
