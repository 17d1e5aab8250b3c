import CastProtocol

/// The binary messages of a client that shares its camera, gathered fragment by fragment into
/// whole pictures (at most ``IngestLimits/maximumMessageBytes``: a larger one is dropped whole)
/// and handed on; when a picture is not taken the client is asked for a keyframe, at most every
/// ``keyframeRequestInterval``. A message that came in one fragment is handed over as it is: its
/// only copy is the one into the decoder's queue.
struct PictureAssembly {
    /// Keyframe requests to a sharing client come at most this often.
    static let keyframeRequestInterval = Duration.milliseconds(250)

    private var incoming: [UInt8] = []
    private var tooLarge = false
    private var lastKeyframeRequest: ContinuousClock.Instant?

    /// One fragment at `now`; `isLast` when it ends the message. `ingest` takes a whole picture
    /// and says whether it was taken. Returns what to tell the client (an error, a keyframe request).
    mutating func receive(_ fragment: UnsafeRawBufferPointer, isLast: Bool, now: ContinuousClock.Instant,
                          ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool) -> ServerMessage? {
        defer { if isLast { incoming.removeAll(keepingCapacity: true); tooLarge = false } }
        guard !tooLarge else { return nil }
        guard incoming.count + fragment.count <= IngestLimits.maximumMessageBytes else {
            tooLarge = true
            incoming.removeAll(keepingCapacity: true)
            return .error(ProtocolError(code: .tooLarge, message: "a picture message is over the limit of "
                + "\(IngestLimits.maximumMessageBytes) bytes (dropped)"))
        }
        if isLast && incoming.isEmpty { return hand(fragment, now: now, to: ingest) }
        incoming.append(contentsOf: fragment)
        guard isLast else { return nil }
        let picture = incoming
        return picture.withUnsafeBytes { hand($0, now: now, to: ingest) }
    }

    /// One whole picture to `ingest`; a keyframe request when it was not taken.
    private mutating func hand(_ picture: UnsafeRawBufferPointer, now: ContinuousClock.Instant,
                               to ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool) -> ServerMessage? {
        do throws(ProtocolError) {
            guard try !ingest(picture) else { return nil }
            guard lastKeyframeRequest.map({ $0.duration(to: now) >= Self.keyframeRequestInterval }) ?? true else { return nil }
            lastKeyframeRequest = now
            return .keyframeRequest
        } catch {
            return .error(error)
        }
    }
}
