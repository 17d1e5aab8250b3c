import CastProtocol
import Logging
import MediaKit

/// A client whose camera stopped being the source because of another's command, and why: it is told.
public struct SharingEnded: Sendable, Equatable {
    public let sharer: Int
    public let reason: String

    /// Why a sharing ends when another client shares its camera.
    static let takenOver = "another viewer took over the camera"
    /// Why a sharing ends when another source is opened.
    static let anotherSource = "another source was opened"
}

/// A client whose camera is the session's source (`share`), and what played before it.
struct CameraShare: Sendable {
    /// The transport's name for the sharing connection.
    let sharer: Int
    let source: BrowserSource
    /// What played before, and where a file was: it comes back when the sharing ends.
    let previous: SourceState
    let position: Double?
    var budget: IngestBudget
    var lastPicture: ContinuousClock.Instant
}

/// `share`: a client's camera as the source. Called on the transport's thread only (the
/// sharer's messages and its connection's end arrive there).
extension Session {
    /// The camera of `sharer` becomes the source: decoded pictures at its size (``frameSize(forCamera:_:)``), filtered
    /// and sent as any source's. Refused when another client shares, unless `takeOver` (then that
    /// client's sharing ends). Only one that may control asks.
    func startSharing(_ request: ShareRequest, by sharer: Int) throws(ProtocolError) {
        let largest = largestFrame ?? (player.pool.width, player.pool.height)
        if let problem = ingestLimits.refusal(width: request.width, height: request.height, largest: largest) {
            throw ProtocolError(code: .outOfRange, message: problem)
        }
        let current = sharing.withLock { $0 }
        if let current, current.sharer != sharer, !request.takeOver {
            throw ProtocolError(code: .busy, message: "another viewer shares a camera; share with \"takeOver\": true to take over")
        }
        let name = SharedCameraName.shown(label: request.label)
        let session = frameSize(forCamera: request.width, request.height)
        let source: BrowserSource
        do {
            source = try BrowserSource(codec: request.codec == .h264 ? .h264 : .jpeg, name: name,
                                       announced: (request.width, request.height), width: session.width,
                                       height: session.height, frameRate: 30, stallTimeout: .seconds(1),
                                       audio: request.audio.map { ($0.channels, $0.rate) })
            source.onWarning = { [log] in log.warning($0) }
            // A stall (no picture for a second) shows NO SIGNAL; "reconnecting" is waiting on the
            // same queue, so pictures that come again play again.
            try player.switchSource(to: source, reopen: { source })
        } catch {
            throw ProtocolError(code: .ingestFailed, message: error.description)
        }
        // Taking over keeps what played before the first sharer, not the first sharer's camera.
        let previous = current.map { ($0.previous, $0.position) } ?? (sourceState.withLock { $0 }, player.playbackState.position)
        current?.source.end(reason: SharingEnded.takenOver)
        sharing.withLock {
            $0 = CameraShare(sharer: sharer, source: source, previous: previous.0, position: previous.1,
                             budget: IngestBudget(ingestLimits), lastPicture: .now)
        }
        sourceState.withLock {
            $0 = SourceState(kind: .browser, name: name, seekable: false, width: session.width, height: session.height,
                             fps: nil, startInput: false, reference: nil)
        }
        transportGeneration.add(1, ordering: .relaxed)
        log.info("camera shared", ["camera": .string(name), "codec": .string(request.codec.rawValue),
                                   "size": .string("\(request.width)x\(request.height)"),
                                   "audio": .string(request.audio.map { "opus, \($0.channels) channels" } ?? "none")])
    }

    /// One binary message of `sharer`: a picture of its camera, or a packet of its microphone.
    /// Returns false when a picture was dropped (the sender should send a keyframe). Throws — and
    /// the sharing ends, the source from before comes back — when it is neither, breaks the
    /// limits, or the source ended because a picture was not of the size announced; a microphone
    /// packet too large is refused and dropped, the sharing goes on.
    func ingest(_ message: UnsafeRawBufferPointer, from sharer: Int) throws(ProtocolError) -> Bool {
        guard let share = sharing.withLock({ $0 }), share.sharer == sharer else { throw .binaryMessage }
        let isSound = IngestSound.isSound(message)
        let sound: IngestSound?
        let picture: IngestPicture?
        do throws(ProtocolError) {
            sound = isSound ? try IngestSound.parse(message) : nil
            picture = isSound ? nil : try IngestPicture.parse(message)
            if isSound, share.source.audio == nil {
                throw ProtocolError(code: .invalidArgument, message: "an FCM1 microphone packet, but share start "
                    + "announced no audio; the sharing stopped")
            }
        } catch {
            if error.code != .tooLarge { endSharing(of: sharer, because: error.message) }
            throw error
        }
        try spend(message.count, isSound: isSound, by: sharer)
        ingestCounters.bytes.increment(by: UInt64(message.count))
        if let sound {
            ingestCounters.soundPackets.increment()
            share.source.audio?.offer(sound.payload, captureTime: sound.captureTime)
            return true
        }
        guard let picture else { return true }
        ingestCounters.pictures.increment()
        let taken = share.source.offer(picture.payload, keyframe: picture.isKeyframe, captureTime: picture.captureTime)
        if !taken, let reason = share.source.endReason {
            // The decoder ended the source (a picture of another size than announced).
            endSharing(of: sharer, because: reason)
            throw ProtocolError(code: .ingestFailed, message: "the sharing stopped: \(reason)")
        }
        if !taken { ingestCounters.dropped.increment() }
        return taken
    }

    /// Counts a message of `sharer` against its budget; over it, the sharing ends. Only pictures
    /// keep the sharing alive (a microphone alone is no source).
    private func spend(_ size: Int, isSound: Bool, by sharer: Int) throws(ProtocolError) {
        let now = ContinuousClock.now
        let overBudget = sharing.withLock { share -> String? in
            if !isSound { share?.lastPicture = now }
            return share?.budget.spend(size, isSound: isSound, at: now)
        }
        guard let overBudget else { return }
        endSharing(of: sharer, because: overBudget)
        throw ProtocolError(code: .ingestFailed, message: overBudget + "; the sharing stopped")
    }

    /// Ends the sharing of `sharer` (it stopped, left or broke the limits) and, when `restoring`,
    /// plays what played before: the start input, or the library file at the position it had.
    /// False when `sharer` did not share.
    @discardableResult
    func endSharing(of sharer: Int, because reason: String, restoring: Bool = true) -> Bool {
        guard let share = sharing.withLock({ current -> CameraShare? in
            guard let share = current, share.sharer == sharer else { return nil }
            current = nil
            return share
        }) else { return false }
        share.source.end(reason: reason)
        log.info("camera sharing ended: \(reason)", ["camera": .string(share.source.info.name)])
        if restoring { restore(share.previous, at: share.position) }
        return true
    }

    /// Who shares a camera now, if anybody.
    var sharer: Int? { sharing.withLock { $0?.sharer } }

    /// Another source replaces a shared camera (`open`): the sharing ends, nothing is restored.
    func endSharingForAnotherSource() {
        if let sharer { endSharing(of: sharer, because: SharingEnded.anotherSource, restoring: false) }
    }

    /// The sharer that has sent nothing for ``IngestLimits/silence`` (its network is gone, its
    /// tab hidden), whose sharing ends now; nil when there is none.
    func silentSharer(now: ContinuousClock.Instant) -> Int? {
        guard let share = sharing.withLock({ $0 }), share.lastPicture.duration(to: now) >= IngestLimits.silence else { return nil }
        endSharing(of: share.sharer, because: "no picture from the camera for \(Int(IngestLimits.silence.seconds)) s")
        return share.sharer
    }

    /// Plays `previous` again: the start input (opened anew), or a library file at `position`.
    private func restore(_ previous: SourceState, at position: Double?) {
        if !previous.startInput, let reference = previous.reference, (try? open(reference)) != nil {
            if previous.seekable, let position { player.seek(to: position) }
            return
        }
        guard let inputOpener else { return }
        switchToInput(opening: inputOpener)
        if previous.seekable, let position { player.seek(to: position) }
    }
}
