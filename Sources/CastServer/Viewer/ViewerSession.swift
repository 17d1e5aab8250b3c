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
        /// A session command was applied: every viewer is due a `state`.
        case applied(SessionCommand)
        /// The client gave the token: it may now watch, so the audience may have grown.
        case authorized
        /// The client chose another rendition (`watch`): the audiences changed.
        case watching
        /// The client gave its display name (`name`, checked): its person is called so.
        case renamed(String)
    }

    /// A viewer continuing on an H.264 rendition that is further behind than this starts again
    /// at a newer keyframe.
    static let unitLag = Duration.milliseconds(500)

    /// `--admin-token`, `--token` and `--public-view`.
    private let policy: AccessPolicy
    let now: () -> ContinuousClock.Instant
    /// What the server offers to watch (`hello.renditions`, then the last `renditions`).
    private var offer: [Rendition]
    /// What else it offers (`hello`'s media folder, uploads and sound).
    private let features: ServerFeatures
    /// Where it is in the sound's log, once it asked for sound.
    private var sound = SoundCursor()
    /// The rendition this viewer gets frames from.
    private(set) var watching: Watching
    /// Moves between the rungs of its transport, for a viewer that lets the server choose.
    private var moves = RungMoves()
    /// What its credentials grant: `?token=` of its URL, then the best `auth` it sent.
    private(set) var level: AccessLevel
    /// What its credentials grant over what every channel shares (looks): as `level`, but a
    /// channel's own token counts for nothing there.
    private var serverLevel: AccessLevel
    private(set) var flow = ViewerFlow()
    /// Fragments of the message being received.
    private var incoming: [UInt8] = []
    /// The pictures of a shared camera, gathered from their fragments.
    private var pictures = PictureAssembly()
    private var commandBudget: CommandBudget
    /// What to send it; the held acks (ViewerSession+HeldAcks) go there too.
    var outbox = ViewerOutbox()
    /// The acks of `step` and `seek`, held until their frame is out (ViewerSession+HeldAcks).
    var heldAcks = HeldAcks()

    /// A viewer that connected with `token` (`?token=` of its URL, nil without one) to a server
    /// whose access is `policy`, offered `offer` to watch and `features`.
    init(token: String?, policy: AccessPolicy, offer: [Rendition],
         features: ServerFeatures = ServerFeatures(), now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.offer = offer
        self.features = features
        watching = .initial(in: offer)
        self.policy = policy
        self.now = now
        level = policy.level(presenting: [token])
        serverLevel = policy.on(channelToken: nil).level(presenting: [token])
        commandBudget = CommandBudget(now: now())
    }

    /// A viewer of a server without `--admin-token`.
    convenience init(token: String?, accessToken: AccessToken?, publicView: Bool, offer: [Rendition],
                     features: ServerFeatures = ServerFeatures(), now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.init(token: token, policy: AccessPolicy(token: accessToken, publicView: publicView), offer: offer,
                  features: features, now: now)
    }

    /// May send control commands (always, without `--token`).
    var authorized: Bool { level >= .control }

    /// Whether frames and `state` go to this viewer: with `--token` and without `--public-view`,
    /// only once it gave the token.
    var mayWatch: Bool { level >= .watch }

    /// What `hello.access` tells the client.
    var access: ViewerAccess { AccessPolicy.viewerAccess(level) }

    /// The first message: `hello` with the filters and the state now.
    func greet(filters: [FilterDescriptor], state: SessionState) {
        outbox.enqueue(.hello(filters: filters, state: seen(state), access: access, renditions: offer, features: features))
    }

    /// `state` as this viewer is told it: the preview chain (studio mode) only to a controller.
    func seen(_ state: SessionState) -> SessionState {
        var state = state
        state.previewShown = authorized
        return state
    }

    /// One fragment of a client message; `isLast` when it completes the message, which then runs:
    /// flow control and `auth` here, every other command through `apply` with the `type` it was
    /// sent by (the shared session, which throws without an id: the refusal is stamped with the
    /// command's id here).
    /// `roundTrip` is asked only for a `frameAck`.
    func receive(_ fragment: UnsafeRawBufferPointer, isBinary: Bool, isLast: Bool, roundTrip: () -> Duration,
                 apply: (SessionCommand, _ type: String) throws(ProtocolError) -> Void,
                 ingest: (UnsafeRawBufferPointer) throws(ProtocolError) -> Bool = { _ throws(ProtocolError) in throw .binaryMessage }) -> Outcome {
        guard outbox.closing == nil else { return .none }
        if isBinary {
            if let answer = pictures.receive(fragment, isLast: isLast, now: now(), ingest: ingest) { outbox.enqueue(answer) }
            return .none
        }
        let size = incoming.count + fragment.count
        guard size <= ClientMessageParser.maximumSize else {
            incoming = []
            outbox.enqueue(.error(.tooLarge(atLeast: size)))
            outbox.close(status: WebSocketClose.messageTooBig, reason: "message too large", flushingFirst: true)
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

    /// The filter catalog changed (a LUT was added): every client is sent the new one, as its
    /// `hello` had it (the catalog is public: `GET /api/filters`).
    func catalogChanged(_ filters: [FilterDescriptor]) {
        outbox.enqueue(.catalog(filters: filters))
    }

    /// The saved looks changed (one saved or deleted): every client is sent their names, as
    /// `GET /api/looks` lists them (to any viewer).
    func looksChanged(_ looks: [LookEntry]) {
        outbox.enqueue(.looks(looks))
    }

    /// The renditions' sizes changed (another size of source plays): the client is sent them,
    /// and its rung adaptation weighs the new caps. It stays on the rendition it watched.
    func renditionsChanged(_ renditions: [Rendition]) {
        guard renditions.map(\.id) == offer.map(\.id), renditions != offer else { return }
        offer = renditions
        outbox.enqueue(.renditions(renditions))
    }

    /// This client's camera is no longer the source (another took over, silence, the limits).
    func sharingEnded(_ reason: String) {
        outbox.enqueue(.shareEnded(reason: reason))
    }

    /// Runs `message` and acknowledges it when it has an id (`frameAck` never is). A refusal is
    /// stamped with the id here, the one place that knows which command it answers.
    private func dispatch(_ message: ClientMessage, roundTrip: () -> Duration,
                          apply: (SessionCommand, _ type: String) throws(ProtocolError) -> Void) throws(ProtocolError) -> Outcome {
        let outcome: Outcome
        do throws(ProtocolError) {
            outcome = try perform(message, roundTrip: roundTrip, apply: apply)
        } catch {
            throw error.answering(message.id)
        }
        if let id = message.id, !message.command.isAcknowledgement, !holdsAck(id, of: outcome) {
            outbox.enqueue(outcome == .authorized ? .authorized(id, access: access) : .ack(id))
        }
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
            outbox.close(status: WebSocketClose.policyViolation, reason: "command flood", flushingFirst: true)
        }
        return false
    }

    /// Checks the sender's access against the command table, then carries the command out: here
    /// when it is about this connection, through `apply` when it is about the channel or the server.
    private func perform(_ message: ClientMessage, roundTrip: () -> Duration,
                         apply: (SessionCommand, _ type: String) throws(ProtocolError) -> Void) throws(ProtocolError) -> Outcome {
        let rule = CommandTable.rule(for: message.type)
        guard (rule.scope == .server ? serverLevel : level) >= rule.access else {
            throw rule.refusal(controlsChannel: level >= rule.access)
        }
        switch message.command {
        case .connection(let command):
            return try perform(command, roundTrip: roundTrip)
        case .session(let command):
            try apply(command, message.type)
            return .applied(command)
        }
    }

    /// A command about this connection alone.
    private func perform(_ command: ConnectionCommand, roundTrip: () -> Duration) throws(ProtocolError) -> Outcome {
        switch command {
        case .frameAck(let sequence, let held):
            if let delay = flow.acknowledge(sequence, roundTrip: roundTrip(), held: .milliseconds(held ?? 0), now: now()) {
                moves.delivered(delay: delay, at: now())
            }
            return .none
        case .flow(let window):
            flow.setWindow(window)
            return .none
        case .watch(let transport, let rendition, let audio):
            let requested = try Watching.requested(transport, rendition: rendition, in: offer, controls: authorized)
            let listensAgain = try sound.listen(audio, offered: features.audio != nil)
            moves.restart(pinned: requested.pinned, rungCount: rungs(of: transport).count, padsProbes: transport == .h264, now: now())
            guard requested != watching else { return listensAgain ? .watching : .none }
            if requested.rendition != watching.rendition { flow.restart() }
            watching = requested
            return .watching
        case .auth(let token):
            // Without --token everybody controls already; only a token of this server's is right.
            guard policy.recognizes([token]) else { throw .wrongToken }
            level = max(level, policy.level(presenting: [token]))
            serverLevel = max(serverLevel, policy.on(channelToken: nil).level(presenting: [token]))
            outbox.markStateDue()  // the state in its hello may be old: nothing was sent since
            return .authorized
        case .name(let name):
            return .renamed(name)
        }
    }

    /// Whether this viewer is sent sound now: it asked, and may watch.
    var isListening: Bool { sound.listening && mayWatch }

    /// Sound packet `sequence` was written; returns how many were skipped before it.
    func audioSent(_ sequence: UInt64) -> UInt64 { sound.sent(sequence) }

    private func audioDue(_ supply: FrameSupply) -> UInt64? { mayWatch ? sound.due(in: supply.audio) : nil }

    /// A message for this viewer (encoded): a refusal of its URL's `?name=`.
    func tell(_ encoded: [UInt8]) { outbox.enqueue(encoded: encoded) }

    /// An `activity` message (encoded); a slow viewer gets the newest (``ViewerOutbox/maximumPendingActivity``).
    func tellActivity(_ encoded: [UInt8]) { outbox.enqueueActivity(encoded) }

    /// A `pointer` of the person `sender` (encoded), in place of one of theirs still waiting.
    func point(_ encoded: [UInt8], from sender: String) { outbox.enqueuePointer(encoded, from: sender) }

    /// The shared state changed: a `state` is due, if this viewer may watch.
    func stateChanged() {
        if mayWatch { outbox.markStateDue() }
    }

    /// A recording stopped by itself: viewers that may watch are told why.
    func recordingStopped(_ reason: String) {
        if mayWatch { outbox.enqueue(.error(.recordingStopped(reason))) }
    }

    /// Its channel was removed: close with 1001, the reason naming the channel (unless a close is already due).
    func channelRemoved(_ name: ChannelName) {
        if outbox.closing == nil { outbox.close(status: WebSocketClose.goingAway, reason: "channel \(name) was removed") }
    }

    /// The server stops: close with 1001 (unless a close is already due).
    func shutDown() {
        if outbox.closing == nil { outbox.close(status: WebSocketClose.goingAway, reason: "server shutting down") }
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
        if let pending = moves.pending { return moves.hasKeyframeSinceDecision(pending, supply) ? nil : pending }
        switch cursor(supply, frameInterval: frameInterval) {
        case .needKeyframe, .sendFarBehind: return watching.rendition  // keyframes are rare: TCP loses nothing
        case .send, .wait: return nil
        }
    }

    /// The renditions whose frames this viewer needs now (the transport counts their audiences):
    /// its own, and the one it is moving to.
    var watchedRenditions: [Int] {
        guard mayWatch else { return [] }
        return [watching.rendition] + (moves.pending.map { [$0] } ?? [])
    }

    /// Every quarter second, for a viewer that lets the server choose: moves it to the rung its
    /// delivery allows (``RungChooser``) — a JPEG viewer at once, an H.264 one at the new
    /// rendition's next keyframe (``switchIfReady(supply:)``). `production`: what each rendition
    /// made lately. True when its renditions changed.
    func adapt(production: [Int: RungProduction], frameInterval: Duration) -> Bool {
        guard mayWatch else { return false }
        let made = production[watching.rendition] ?? RungProduction(perSecond: 0, inWindow: 0)
        let decision = moves.adapt(watching: watching, ladder: rungs(of: watching.transport), production: made,
                                   frameInterval: frameInterval, oldestUnacknowledged: flow.oldestWaiting(now: now()), now: now())
        if let target = decision.moveNow { move(to: target) }
        return decision.changed
    }

    /// An H.264 viewer moving to another rendition moves once that rendition has a keyframe made
    /// since the decision (``RungMoves/switchIfReady(_:)``): true when it moved (its renditions changed).
    func switchIfReady(supply: FrameSupply) -> Bool {
        guard let target = moves.switchIfReady(supply) else { return false }
        move(to: target)
        return true
    }

    /// A padded probe: padding owed at the difference between the caps of the rung probed and its
    /// own (the larger rung at its worst: link buffers absorb a milder overshoot for seconds).
    private func paddingDue() -> Int? {
        let rate = moves.probedRung.map { rung in
            Double((offer[rungs(of: watching.transport)[rung]].bitsPerSecond ?? 0) - (offer[watching.rendition].bitsPerSecond ?? 0)) / 8
        }
        return moves.paddingDue(rate: rate, now: now())
    }

    /// Whether the server chooses this viewer's rendition: the transport then reports its
    /// socket's queue at every wake (``socketQueued(_:frameInterval:)``).
    var adapts: Bool { mayWatch && moves.adapts }

    /// `bytes` wait in the viewer's socket unsent or unacknowledged (nil: unknown): a lag is the
    /// link's only when it keeps them (``RungChooser``); more than a frame of its rendition and
    /// 12 KB stops a padded probe at once, before the frames behind it lag.
    func socketQueued(_ bytes: Int?, frameInterval: Duration) {
        let frameBytes = Double(offer[watching.rendition].bitsPerSecond ?? 0) / 8 * frameInterval.seconds
        moves.socketQueued(bytes, allowance: 12 * 1024 + frameBytes, now: now())
    }

    /// `bytes` of padding were written.
    func paddingSent(_ bytes: Int) { moves.paddingSent(bytes) }

    private func move(to rendition: Int) {
        watching.rendition = rendition
        flow.restart()
    }

    /// The renditions of `transport`, largest first (the offer's order): its ladder.
    private func rungs(of transport: FrameTransport) -> [Int] {
        offer.indices.filter { offer[$0].transport == transport && offer[$0].isProgram }
    }

    /// The next frame due, else padding owed.
    func frameDue(_ supply: FrameSupply, frameInterval: Duration) -> ViewerWrite? {
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

    func cursor(_ supply: FrameSupply, frameInterval: Duration) -> UnitCursor.Choice {
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
