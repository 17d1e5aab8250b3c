import Foundation
import MediaKit

/// One upload's body on its way to disk: written to a hidden temporary file piece by piece as
/// lws hands it over (never held whole in memory), then probed, then placed or removed.
///
/// Belongs to the core's thread (its probe thread sees only the temporary path). Whatever
/// happens — refused, cut short, not a video, the server stopping — ``discard()`` or placing
/// the file leaves nothing of it behind; the descriptor is closed in `deinit` at the latest.
final class UploadReceiver {
    enum Phase {
        /// The body is arriving.
        case receiving
        /// The body is whole and its probe runs (`abandoned`: the client left meanwhile).
        case probing(abandoned: Bool)
        /// Answered, or discarded: nothing is left to clean.
        case done
    }

    let id: Int
    /// The validated name asked for.
    let name: String
    let temporaryPath: String
    let expected: Int64
    /// The connection it came on (compared with the core's uploads before answering: a closed
    /// connection's name may be reused by a new one).
    let connection: ConnectionID
    private(set) var received: Int64 = 0
    var phase = Phase.receiving
    /// The thread probing the file, joined when its result is taken.
    var probeThread: WorkerThread?
    private var descriptor: Int32

    init(id: Int, name: String, temporary: (path: String, descriptor: Int32), expected: Int64, connection: ConnectionID) {
        self.id = id
        self.name = name
        temporaryPath = temporary.path
        descriptor = temporary.descriptor
        self.expected = expected
        self.connection = connection
    }

    deinit { closeFile() }

    /// Writes one piece of the body; false when the disk refuses it or it goes past `expected`.
    func append(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard descriptor >= 0, received + Int64(count) <= expected else { return false }
        var offset = 0
        while offset < count {
            let written = write(descriptor, bytes + offset, count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        received += Int64(count)
        return true
    }

    /// Closes the file once the whole body is in; false when bytes are missing or the close failed.
    func finishWriting() -> Bool {
        let closed = descriptor >= 0 && close(descriptor) == 0
        descriptor = -1
        return closed && received == expected
    }

    /// Removes the temporary file (the upload is refused, cut short or not a video).
    func discard() {
        closeFile()
        unlink(temporaryPath)
        phase = .done
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
