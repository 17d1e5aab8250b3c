import CastProtocol
import Foundation
import Logging
import MediaKit

/// `record`, `open` and `delete`: the recorder and the library.
extension Session {
    /// The `recording` object of `state`.
    var recordingState: RecordingState {
        guard let status = recorder?.status else { return RecordingState() }
        return RecordingState(active: status.isActive, name: status.name, filtered: status.filtered,
                              elapsed: status.elapsed, bytes: status.bytes, droppedFrames: status.droppedFrames,
                              encoder: status.encoder, error: status.error)
    }

    /// Starts or stops recording; stopping when nothing records does nothing.
    func record(start: Bool, filtered: Bool) throws(ProtocolError) {
        guard let recorder else {
            throw ProtocolError(code: .recordingFailed, message: "this server does not record")
        }
        guard start else {
            if let status = recorder.stop() {
                Log.info("recording saved: \(status.name ?? "")", ["seconds": .double((status.elapsed * 10).rounded() / 10),
                                                                     "bytes": .int(Int(status.bytes))])
            }
            return
        }
        do {
            let status = try recorder.start(filtered: filtered)
            Log.info("recording to \(recorder.options.directory)/\(status.name ?? "")",
                     ["encoder": .string(status.encoder ?? ""), "filtered": .bool(filtered)])
        } catch {
            throw ProtocolError(code: .recordingFailed, message: error.description)
        }
    }

    /// Plays the library file `reference` instead of the current source. Its frames are scaled
    /// to the session's frame size; the filter stays, position and duration become the file's.
    func open(_ reference: String) throws(ProtocolError) {
        guard let library else { throw ProtocolError(code: .forbidden, message: "this server has no library") }
        let (path, _) = try library.resolve(reference)
        let size = player.info
        let source: any VideoSource
        do {
            source = try InputSpec.file(path).open(SourceOptions(outputSize: (size.width, size.height)))
            source.onWarning = { Log.warning($0) }
            try player.switchSource(to: source)
        } catch {
            // Clients see the name they gave, not the server's path.
            throw ProtocolError(code: .openFailed, message: error.description.replacingOccurrences(of: path, with: reference))
        }
        let info = source.info
        sourceState.withLock {
            $0 = SourceState(kind: "file", name: reference, seekable: !info.isLive, width: info.width,
                             height: info.height, fps: info.frameRate)
        }
        transportGeneration.add(1, ordering: .relaxed)
    }

    /// Deletes the recording `reference` names; not the one being recorded.
    func delete(_ reference: String) throws(ProtocolError) {
        guard let library else { throw ProtocolError(code: .forbidden, message: "this server has no library") }
        let (path, _) = try library.resolve(reference)
        if let recorder, recorder.status.isActive, let name = recorder.status.name,
           path == library.recordings.root + "/" + name {
            throw ProtocolError(code: .forbidden, message: "\(reference) is being recorded: stop the recording first")
        }
        try library.delete(reference)
    }
}
