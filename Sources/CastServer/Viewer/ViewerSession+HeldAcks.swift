import CastProtocol

/// `step` and `seek` are answered once their frame is out (``HeldAcks``): their `ack` waits for
/// the player's jump and for this viewer to have been sent the pictures published until then.
extension ViewerSession {
    /// Holds the ack of command `id` when `outcome` is a `step` or a `seek` applied; true then.
    /// Network thread.
    func holdsAck(_ id: MessageID, of outcome: Outcome) -> Bool {
        guard case .applied(let command) = outcome, command.answersOnceShown else { return false }
        if let overflow = heldAcks.hold(id, now: now()) { outbox.enqueue(.ack(overflow)) }
        return true
    }

    /// The `step` or `seek` just applied waits for jump `ticket` of its player to be out.
    func acksWait(forJump ticket: Int) {
        heldAcks.waitFor(ticket: ticket)
    }

    /// Whether acks are held (then ``releaseAcks(jumpsOut:supply:frameInterval:)`` has work).
    var holdsAcks: Bool { !heldAcks.isEmpty }

    /// Answers the held acks whose frame is out (`jumpsOut`, the player's, read before `supply`
    /// was taken) and sent to this viewer — none while a newer picture than the last sent waits in
    /// `supply` — or that waited too long.
    func releaseAcks(jumpsOut: Int, supply: FrameSupply, frameInterval: Duration) {
        guard !heldAcks.isEmpty else { return }
        let encoder = watching.transport == .h264 ? supply.encoders[watching.rendition] : nil
        let released = heldAcks.release(jumpsOut: jumpsOut, encoder: encoder,
                                        pictureWaiting: pictureWaiting(supply, frameInterval: frameInterval), now: now())
        for id in released { outbox.enqueue(.ack(id)) }
    }

    /// A picture newer than the last sent is published for this viewer, whether or not its flow
    /// window lets it go now: a viewer still acknowledging the frame before a jump gets the jump's
    /// frame later, and its ack after it.
    private func pictureWaiting(_ supply: FrameSupply, frameInterval: Duration) -> Bool {
        guard mayWatch else { return false }
        switch watching.transport {
        case .jpeg:
            return (supply.jpeg[watching.rendition] ?? 0) > flow.lastSent
        case .h264:
            switch cursor(supply, frameInterval: frameInterval) {
            case .send, .sendFarBehind, .needKeyframe: return true
            case .wait: return false
            }
        }
    }
}
