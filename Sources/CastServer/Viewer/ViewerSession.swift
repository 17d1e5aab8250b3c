import CastProtocol
import FilterKit

/// The rules of one `/ws` viewer, without a socket: messages in, what to write out.
///
/// The lws callbacks only translate: a received fragment becomes `receive`, a writable callback
/// asks `nextWrite` and writes what it says, and after any call the transport requests a
/// writable callback while `hasWork` is true. Time comes from the injected `now`, so tests
/// drive every rule (hello first, the command budget, the flow window, state pushes, closes,
/// the token) without a network. Service thread only.
final class ViewerSession {
    /// What a received message asks of the rest of the server.
    enum Outcome: Equatable {
        case none
        /// A state-changing command was applied: every viewer is due a `state`.
        case applied(ClientCommand)
        /// The client gave the token: it may now watch, so the audience may have grown.
        case authorized
        /// The client chose another rendition (`watch`): the audiences changed.
        case watching
    }

    /// A viewer continuing on an H.264 rendition that is further behind than this starts again
    /// at a newer keyframe.
    static let unitLag = Duration.milliseconds(500)

    /// `--token`; nil when the server takes commands from anyone.
    private let accessToken: AccessToken?
    /// `--public-view`: frames and state go to clients without the token too.
    private let publicView: Bool
    private let now: () -> ContinuousClock.Instant
    /// What the server offers to watch (`hello.renditions`).
    private let offer: [Rendition]
    /// What else it offers (`hello`'s media folder, uploads and sound).
    private let features: ServerFeatures
    /// The client asked for sound (`watch {audio: true}`).
    private(set) var listening = false
    /// The last sound packet sent (0: none since it asked).
    private var audioLastSent: UInt64 = 0
    /// The rendition this viewer gets frames from.
    private(set) var watching: Watching
    /// For a viewer that lets the server choose (`watch` with `rendition` `auto`): the rung of its
    /// transport's ladder its delivery allows.
    private var chooser: RungChooser?
    /// A padded probe's padding: bytes owed, accrued until `since`.
    private var padding: (owed: Double, since: ContinuousClock.Instant?) = (0, nil)
    /// An H.264 rendition the viewer moves to at that rendition's first keyframe made since.
    private(set) var pendingRendition: Int?
    private var pendingSince: ContinuousClock.Instant?
    /// May send control commands (always, without `--token`).
    private(set) var authorized: Bool
    private(set) var flow = ViewerFlow()
    /// Fragments of the message being received.
    private var incoming: [UInt8] = []
    /// The binary message (a shared camera's picture) being gathered, and whether it is over the limit.
    private var incomingPicture: [UInt8] = []
    private var pictureTooLarge = false
    private var lastKeyframeRequest: ContinuousClock.Instant?
    private var commandBudget: CommandBudget
    private var outbox = ViewerOutbox()

    /// A viewer that connected with `token` (`?token=` of its URL, nil without one), offered
    /// `offer` to watch and `features`.
    init(token: String?, accessToken: AccessToken?, publicView: Bool, offer: [Rendition],
         features: ServerFeatures = ServerFeatures(), now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.offer = offer
        self.features = features
        watching = .initial(in: offer)
        self.accessToken = accessToken
        self.publicView = publicView
        self.now = now
        authorized = accessToken.map { $0.accepts(token) } ?? true
        commandBudget = CommandBudget(now: now())
    }

    /// Whether frames and `state` go to this viewer: with `--token` and without `--public-view`,
    /// only once it gave the token.
    var mayWatch: Bool { authorized || accessToken == nil || publicView }

    /// What `hello.access` tells the client.
    var access: ViewerAccess { authorized ? .control : mayWatch ? .watch : .none }

    /// The first message: `hello` with the filters and the state now.
    func greet(filters: [FilterDescriptor], state: SessionState) {
        outbox.enqueue(.hello(filters: filters, state: state, access: access, renditions: offer, features: features))
    }

    /// One fragment of a client message; `isLast` when it completes the message, which then runs:
    /// flow control and `auth` here, every other command through `apply` (the shared session,
    /// which throws without an id: the refusal is stamped with the command's id here).
    /// `roundTrip` is asked only for a `frameAck`.
    func receive(_ fragment: UnsafeRawBufferPointer, isBinary: Bool, isLast: Bool, roundTrip: () -> Duration,
                 apply: (ClientCommand) throws(ProtocolError) -> Void,
                 ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool = { _ throws(ProtocolError) in throw .binaryMessage }) -> Outcome {
        guard outbox.closing == nil else { return .none }
        if isBinary {
            receivePicture(fragment, isLast: isLast, ingest: ingest)
            return .none
        }
        let size = incoming.count + fragment.count
        guard size <= ClientMessageParser.maximumSize else {
            incoming = []
            outbox.enqueue(.error(.tooLarge(atLeast: size)))
            outbox.close(status: LWSCloseStatus.messageTooBig, reason: "message too large", flushingFirst: true)
            return .none
        }
        incoming.append(contentsOf: fragment)
        guard isLast else { return .none }
        defer { incoming.removeAll(keepingCapacity: true) }
        let parsed = incoming.withUnsafeBytes { bytes in
            Result { () throws(ProtocolError) in try ClientMessageParser.parse(bytes) }
        }
        guard withinBudget(parsed) else { return .none }
        do throws(ProtocolError) {
            return try dispatch(try parsed.get(), roundTrip: roundTrip, apply: apply)
        } catch {
            outbox.enqueue(.error(error))
            return .none
        }
    }

    /// One fragment of a binary message: a picture of the camera this client shares, gathered
    /// (at most ``IngestLimits/maximumMessageBytes``; a larger one is dropped whole and refused)
    /// and handed to `ingest`, which says whether it was taken; when it was not, the client is
    /// asked for a keyframe (at most every ``keyframeRequestInterval``). A message that came in
    /// one fragment is handed over as it is: its only copy is the one into the decoder's queue.
    private func receivePicture(_ fragment: UnsafeRawBufferPointer, isLast: Bool,
                                ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool) {
        defer { if isLast { incomingPicture.removeAll(keepingCapacity: true); pictureTooLarge = false } }
        guard !pictureTooLarge else { return }
        guard incomingPicture.count + fragment.count <= IngestLimits.maximumMessageBytes else {
            pictureTooLarge = true
            incomingPicture.removeAll(keepingCapacity: true)
            outbox.enqueue(.error(ProtocolError(code: .tooLarge, message: "a picture message is over the limit of "
                + "\(IngestLimits.maximumMessageBytes) bytes (dropped)")))
            return
        }
        if isLast && incomingPicture.isEmpty { return hand(fragment, to: ingest) }
        incomingPicture.append(contentsOf: fragment)
        guard isLast else { return }
        incomingPicture.withUnsafeBytes { hand($0, to: ingest) }
    }

    /// One whole picture message to `ingest`; a keyframe request when it was not taken.
    private func hand(_ picture: UnsafeRawBufferPointer, to ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool) {
        do throws(ProtocolError) {
            if try !ingest(picture), lastKeyframeRequest.map({ $0.duration(to: now()) >= Self.keyframeRequestInterval }) ?? true {
                lastKeyframeRequest = now()
                outbox.enqueue(.keyframeRequest)
            }
        } catch {
            outbox.enqueue(.error(error))
        }
    }

    /// Keyframe requests to a sharing client come at most this often.
    static let keyframeRequestInterval = Duration.milliseconds(250)

    /// This client's camera is no longer the source (another took over, silence, the limits).
    func sharingEnded(_ reason: String) {
        outbox.enqueue(.shareEnded(reason: reason))
    }

    /// Runs `message` and acknowledges it when it has an id (`frameAck` never is). A refusal is
    /// stamped with the id here, the one place that knows which command it answers.
    private func dispatch(_ message: ClientMessage, roundTrip: () -> Duration,
                          apply: (ClientCommand) throws(ProtocolError) -> Void) throws(ProtocolError) -> Outcome {
        let outcome: Outcome
        do throws(ProtocolError) {
            outcome = try perform(message.command, roundTrip: roundTrip, apply: apply)
        } catch {
            throw error.answering(message.id)
        }
        if let id = message.id, !message.command.isAcknowledgement { outbox.enqueue(.ack(id)) }
        return outcome
    }

    /// Acknowledgements are the flow control itself (one per frame, whatever the frame rate), so
    /// they do not spend the command budget; everything else does. Over the budget: one
    /// `rate_limited` error per episode, and a close with 1008 once the episode is too long
    /// (after the answers so far).
    private func withinBudget(_ parsed: Result<ClientMessage, ProtocolError>) -> Bool {
        if case .success(let message) = parsed, message.command.isAcknowledgement { return true }
        if commandBudget.spend(now: now()) { return true }
        if commandBudget.refusedInEpisode == 1 {
            outbox.enqueue(.error(.rateLimited(perSecond: Int(CommandBudget.perSecond))))
        } else if commandBudget.exhausted {
            outbox.close(status: LWSCloseStatus.policyViolation, reason: "command flood", flushingFirst: true)
        }
        return false
    }

    private func perform(_ command: ClientCommand, roundTrip: () -> Duration,
                         apply: (ClientCommand) throws(ProtocolError) -> Void) throws(ProtocolError) -> Outcome {
        switch command {
        case .frameAck(let sequence):
            if let delay = flow.acknowledge(sequence, roundTrip: roundTrip(), now: now()) {
                chooser?.delivered(delay: delay, at: now())
            }
            return .none
        case .flow(let window):
            flow.setWindow(window)
            return .none
        case .watch(let transport, let rendition, let audio):
            let requested = try Watching.requested(transport, rendition: rendition, in: offer)
            let listensAgain = try listen(audio)
            chooser = requested.pinned ? nil
                : RungChooser(rungCount: rungs(of: transport).count, padsProbes: transport == .h264, now: now())
            pendingRendition = nil
            pendingSince = nil
            guard requested != watching else { return listensAgain ? .watching : .none }
            if requested.rendition != watching.rendition { flow.restart() }
            watching = requested
            return .watching
        case .auth(let token):
            guard let accessToken, accessToken.accepts(token) else { throw .wrongToken }
            authorized = true
            outbox.markStateDue()  // the state in its hello may be old: nothing was sent since
            return .authorized
        default:
            guard authorized else { throw .tokenRequired }
            try apply(command)
            return .applied(command)
        }
    }

    /// `watch.audio`: sound from now on (`true`), or none; nil leaves it as it is. True when that
    /// changed (the listeners changed). Refused, changing nothing, when the server sends no sound.
    private func listen(_ audio: Bool?) throws(ProtocolError) -> Bool {
        guard let audio, audio != listening else { return false }
        if audio && features.audio == nil {
            throw ProtocolError(code: .outOfRange, message: "watch.audio: this server sends no sound (hello.audio is null: its FFmpeg has no Opus encoder, or --speed is not 1)")
        }
        listening = audio
        audioLastSent = 0
        return true
    }

    /// Whether this viewer is sent sound now: it asked, and may watch.
    var isListening: Bool { listening && mayWatch }

    /// The next sound packet due: the one after the last sent, or — starting, or more than the log
    /// holds behind (its socket did not take the packets in time) — the newest.
    private func audioDue(_ supply: FrameSupply) -> UInt64? {
        guard isListening, let log = supply.audio, log.latest > audioLastSent else { return nil }
        return audioLastSent == 0 || audioLastSent + 1 < log.oldest ? log.latest : audioLastSent + 1
    }

    /// Sound packet `sequence` was written; returns how many were skipped before it.
    func audioSent(_ sequence: UInt64) -> UInt64 {
        defer { audioLastSent = sequence }
        return audioLastSent == 0 ? 0 : sequence - audioLastSent - 1
    }

    /// The shared state changed: a `state` is due, if this viewer may watch.
    func stateChanged() {
        if mayWatch { outbox.markStateDue() }
    }

    /// A recording stopped by itself: viewers that may watch are told why.
    func recordingStopped(_ reason: String) {
        if mayWatch { outbox.enqueue(.error(.recordingStopped(reason))) }
    }

    /// The server stops: close with 1001 (unless a close is already due).
    func shutDown() {
        if outbox.closing == nil { outbox.close(status: LWSCloseStatus.goingAway, reason: "server shutting down") }
    }

    /// What to write at this writable callback: what the outbox holds, else the next frame of
    /// the rendition it watches, when its window has room and the viewer may watch.
    /// Sound goes before pictures: it is small, and a gap in it is heard.
    func nextWrite(supply: FrameSupply, frameInterval: Duration) -> ViewerWrite {
        if let write = outbox.next() { return write }
        if let sequence = audioDue(supply) { return .audio(sequence: sequence) }
        return frameDue(supply, frameInterval: frameInterval) ?? .nothing
    }

    /// Whether `nextWrite` has something to write: the transport then asks for a writable callback.
    func hasWork(supply: FrameSupply, frameInterval: Duration) -> Bool {
        !outbox.isEmpty || audioDue(supply) != nil || frameDue(supply, frameInterval: frameInterval) != nil
    }

    /// The H.264 rendition that has to make a keyframe for this viewer, if any (the transport
    /// asks it: ``H264Stream/requestKeyframe()``): the one it starts on, or moves to.
    func keyframeNeeded(supply: FrameSupply, frameInterval: Duration) -> Int? {
        guard mayWatch, watching.transport == .h264 else { return nil }
        if let pending = pendingRendition { return hasKeyframeSinceDecision(pending, supply) ? nil : pending }
        switch cursor(supply, frameInterval: frameInterval) {
        case .needKeyframe, .sendFarBehind: return watching.rendition  // keyframes are rare: TCP loses nothing
        case .send, .wait: return nil
        }
    }

    /// The renditions whose frames this viewer needs now (the transport counts their audiences):
    /// its own, and the one it is moving to.
    var watchedRenditions: [Int] {
        guard mayWatch else { return [] }
        return [watching.rendition] + (pendingRendition.map { [$0] } ?? [])
    }

    /// Every quarter second, for a viewer that lets the server choose: moves it to the rung its
    /// delivery allows (``RungChooser``) — a JPEG viewer at once, an H.264 one at the new
    /// rendition's next keyframe (``switchIfReady(supply:)``). `rates`: frames a second each
    /// rendition makes. True when its renditions changed.
    func adapt(rates: [Int: Double], frameInterval: Duration) -> Bool {
        guard var chooser, mayWatch else { return false }
        defer { self.chooser = chooser }
        let ladder = rungs(of: watching.transport)
        guard let rung = chooser.evaluate(now: now(), produced: rates[watching.rendition] ?? 0,
                                          frameInterval: frameInterval, oldestUnacknowledged: flow.oldestWaiting(now: now())) else {
            return false
        }
        let target = ladder[rung]
        if watching.transport == .jpeg {
            move(to: target)
        } else {
            pendingRendition = target == watching.rendition ? nil : target
            pendingSince = now()
        }
        return true
    }

    /// An H.264 viewer moving to another rendition moves once that rendition has a keyframe made
    /// since the decision, where its decoder starts over (not an older one: the units since then
    /// would come as a burst): true when it moved (its renditions changed).
    func switchIfReady(supply: FrameSupply) -> Bool {
        guard let pending = pendingRendition, hasKeyframeSinceDecision(pending, supply) else { return false }
        pendingRendition = nil
        move(to: pending)
        return true
    }

    /// A padded probe: padding owed at the difference between the caps of the rung probed and its
    /// own (the larger rung at its worst: link buffers absorb a milder overshoot for seconds),
    /// written in pieces of at most 16 KB once 2 KB are owed — with the frame wake-ups, about one
    /// piece a frame.
    private func paddingDue() -> Int? {
        guard let target = chooser?.padding.map({ rungs(of: watching.transport)[$0.rung] }) else {
            padding = (0, nil)
            return nil
        }
        let now = now()
        let rate = Double((offer[target].bitsPerSecond ?? 0) - (offer[watching.rendition].bitsPerSecond ?? 0)) / 8
        if let since = padding.since { padding.owed = min(padding.owed + rate * since.duration(to: now).seconds, 64 * 1024) }
        padding.since = now
        return padding.owed >= 2048 ? Int(min(padding.owed, 16 * 1024)) : nil
    }

    /// Whether this viewer is being sent padding (the transport then reports its socket's queue).
    var isPadding: Bool { chooser?.padding != nil }

    /// During a padded probe: `bytes` wait in the socket unsent or unacknowledged. More than a
    /// frame of the viewer's rendition and 12 KB means the link does not take the padding: it
    /// stops at once, before the frames behind it lag.
    func socketQueued(_ bytes: Int, frameInterval: Duration) {
        let frameBytes = Double(offer[watching.rendition].bitsPerSecond ?? 0) / 8 * frameInterval.seconds
        if Double(bytes) > 12 * 1024 + frameBytes { chooser?.stopPadding() }
    }

    /// `bytes` of padding were written.
    func paddingSent(_ bytes: Int) {
        padding.owed = max(0, padding.owed - Double(bytes))
    }

    private func move(to rendition: Int) {
        watching.rendition = rendition
        flow.restart()
    }

    private func hasKeyframeSinceDecision(_ rendition: Int, _ supply: FrameSupply) -> Bool {
        guard let log = supply.units[rendition], log.keyframe > 0, let made = log.keyframeTime, let pendingSince else { return false }
        return made >= pendingSince
    }

    /// The renditions of `transport`, largest first (the offer's order): its ladder.
    private func rungs(of transport: FrameTransport) -> [Int] {
        offer.indices.filter { offer[$0].transport == transport }
    }

    /// The next frame due, else padding owed.
    private func frameDue(_ supply: FrameSupply, frameInterval: Duration) -> ViewerWrite? {
        guard mayWatch else { return nil }
        switch watching.transport {
        case .jpeg:
            let latest = supply.jpeg[watching.rendition] ?? 0
            if latest > flow.lastSent && flow.isOpen(frameInterval: frameInterval) { return .frame(rendition: watching.rendition) }
        case .h264:
            guard flow.isOpenForUnits else { break }
            switch cursor(supply, frameInterval: frameInterval) {
            case .send(let sequence), .sendFarBehind(let sequence): return .unit(rendition: watching.rendition, sequence: sequence)
            case .wait, .needKeyframe: break
            }
        }
        return paddingDue().map { .padding(bytes: $0) }
    }

    private func cursor(_ supply: FrameSupply, frameInterval: Duration) -> UnitCursor.Choice {
        guard let log = supply.units[watching.rendition] else { return .wait }
        // ``unitLag`` in units of a stream making one every `frameInterval` (at least 4).
        let lagLimit = UInt64(max(4, (Self.unitLag / max(frameInterval, .milliseconds(1))).rounded(.up)))
        return UnitCursor.next(lastSent: flow.lastSent, log: log, now: supply.now, lagLimit: lagLimit,
                               freshFor: H264Stream.forcedKeyframeInterval)
    }

    /// Frame `sequence` was written (now).
    func frameSent(_ sequence: UInt64) {
        flow.sent(sequence, at: now())
    }
}

extension ClientCommand {
    /// `frameAck`: not counted against the budget, and not acknowledged.
    var isAcknowledgement: Bool {
        if case .frameAck = self { return true }
        return false
    }
}
