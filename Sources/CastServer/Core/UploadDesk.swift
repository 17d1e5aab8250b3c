import MediaKit
import Synchronization

/// The uploads under way (at most ``UploadPolicy/concurrentLimit``, received or probed) and the
/// probes' results on their way back to the service thread.
///
/// Threading contract: `underWay` and `nextID` belong to the service thread; probe threads
/// only append to `finished` (then wake the service thread with `lws_cancel_service`).
final class UploadDesk: @unchecked Sendable {
    let policy: UploadPolicy
    /// Service thread only.
    var underWay: [Int: UploadReceiver] = [:]
    private var nextID = 0
    /// Probe results, by upload id: probe threads → service thread.
    let finished = Mutex<[(id: Int, result: Result<UploadProbe.Report, MediaError>)]>([])

    init(policy: UploadPolicy) {
        self.policy = policy
    }

    /// Bytes the uploads still receiving will yet write: the free disk a new upload is checked
    /// against leaves them out, so that two at once cannot overrun the reserve together.
    var pendingBytes: Int64 {
        underWay.values.reduce(0) { total, receiver in
            guard case .receiving = receiver.phase else { return total }
            return total + max(0, receiver.expected - receiver.received)
        }
    }

    /// A fresh upload id (service thread).
    func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Starts probing `receiver`'s file on a thread of its own; `done` is called there after
    /// the result is posted (it wakes the service thread).
    func probe(_ receiver: UploadReceiver, then done: @escaping @Sendable () -> Void) {
        receiver.phase = .probing(abandoned: false)
        let (id, path) = (receiver.id, receiver.temporaryPath)
        receiver.probeThread = WorkerThread(name: "upload-probe") { [self] in
            let result = Result { () throws(MediaError) in try UploadProbe.inspect(path: path) }
            finished.withLock { $0.append((id, result)) }
            done()
        }
    }

    /// The results posted since the last call, each with its receiver (no longer under way),
    /// its probe thread joined (service thread).
    func takeFinished() -> [(receiver: UploadReceiver, result: Result<UploadProbe.Report, MediaError>)] {
        let results = finished.withLock { results in
            defer { results.removeAll() }
            return results
        }
        return results.compactMap { item in
            guard let receiver = underWay.removeValue(forKey: item.id) else { return nil }
            receiver.probeThread?.join()
            receiver.probeThread = nil
            return (receiver, item.result)
        }
    }

    /// The client of `receiver` left: a body still arriving is removed now; one being probed is
    /// marked, and removed when its result comes (service thread).
    func abandon(_ receiver: UploadReceiver) {
        switch receiver.phase {
        case .receiving:
            receiver.discard()
            underWay[receiver.id] = nil
        case .probing:
            receiver.phase = .probing(abandoned: true)
        case .done:
            break
        }
    }
}
