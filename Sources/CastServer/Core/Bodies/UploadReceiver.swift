import Foundation
import MediaKit

/// One upload's body on its way to disk: written to a hidden temporary file piece by piece as
/// lws hands it over (never held whole in memory), then probed on a thread of its own, then
/// placed or removed (`ServerCore+Uploads`).
///
/// Network thread (its probe thread sees only the temporary path and posts into ``probed``).
/// Whatever happens — refused, cut short, not a video, the client gone — the file is placed or
/// removed; the descriptor is closed in `deinit` at the latest.
final class UploadReceiver: PendingBody {
    enum Phase {
        /// The body is arriving.
        case receiving
        /// The body is whole and its probe runs or ran.
        case probing
        /// Answered, or discarded: nothing is left to clean.
        case done
    }

    /// The validated name asked for.
    let name: String
    let temporaryPath: String
    let expected: Int64
    private(set) var received: Int64 = 0
    var phase = Phase.receiving
    /// The probe's verdict, posted by its thread.
    let probed = CheckResult<Result<UploadProbe.Report, MediaError>>()
    private var descriptor: Int32

    init(name: String, temporary: (path: String, descriptor: Int32), expected: Int64) {
        self.name = name
        temporaryPath = temporary.path
        descriptor = temporary.descriptor
        self.expected = expected
    }

    deinit { closeFile() }

    /// Bytes it will yet write.
    var bytesToCome: Int64 { phase == .receiving ? max(0, expected - received) : 0 }

    func append(_ bytes: UnsafeRawBufferPointer, in core: ServerCore) -> BodyRefusal? {
        let refusal: BodyRefusal
        if received + Int64(bytes.count) > expected {
            refusal = BodyRefusal(400, "the body is longer than its Content-Length")
        } else if let base = bytes.baseAddress, write(base, count: bytes.count) {
            return nil
        } else {
            refusal = BodyRefusal(507, "the upload could not be written to disk (\(String(cString: strerror(errno))))")
        }
        _ = core.failUpload(self, refusal)
        return refusal
    }

    func complete(in core: ServerCore, on id: ConnectionID) -> BodyCompletion {
        guard finishWriting() else { return .step(core.failUpload(self, BodyRefusal(500, "the upload could not be written to disk"))) }
        phase = .probing
        let path = temporaryPath
        return .check(thread: "upload-probe", work: { [probed] in
            probed.post(Result { () throws(MediaError) in try UploadProbe.inspect(path: path) })
        }, answer: { core in
            core.placeUpload(self, self.probed.posted ?? .failure(.readFailed(input: path, reason: "the probe gave no verdict")))
        })
    }

    func abandon(in core: ServerCore) { core.uploadAbandoned(self) }

    /// Removes the temporary file (the upload is refused, cut short or not a video).
    func discard() {
        closeFile()
        unlink(temporaryPath)
        phase = .done
    }

    private func write(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard descriptor >= 0 else { return false }
        var offset = 0
        while offset < count {
            let written = Foundation.write(descriptor, bytes + offset, count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        received += Int64(count)
        return true
    }

    /// Closes the file once the whole body is in; false when bytes are missing or the close failed.
    private func finishWriting() -> Bool {
        let closed = descriptor >= 0 && close(descriptor) == 0
        descriptor = -1
        return closed && received == expected
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
