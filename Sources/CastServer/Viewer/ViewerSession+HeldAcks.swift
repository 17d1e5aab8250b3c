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

    /// Answers the held acks whose frame is out (`jumpsOut`, the player's) and sent to this viewer
    /// — none while a newer picture than the last sent waits in `supply` — or that waited too long.
    func releaseAcks(jumpsOut: Int, supply: FrameSupply, frameInterval: Duration) {
        guard !heldAcks.isEmpty else { return }
        let pictureWaiting = frameDue(supply, frameInterval: frameInterval).map { if case .padding = $0 { false } else { true } } ?? false
        for id in heldAcks.release(jumpsOut: pictureWaiting ? 0 : jumpsOut, now: now()) { outbox.enqueue(.ack(id)) }
    }
}
