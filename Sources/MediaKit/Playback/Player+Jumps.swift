import FilterKit
import Foundation

/// Seeks and steps answered once their frame is out: each seek asked for is a jump, numbered;
/// the frame that carries out the newest taken is marked when delivered, and once whoever takes
/// the frames is done with it (``frameOut(_:)``), that jump and every one before it are out.
extension Player {
    /// The number of the newest seek asked for (0: none yet). Any thread.
    public var lastJump: Int {
        condition.lock()
        defer { condition.unlock() }
        return jumpsAsked
    }

    /// The newest jump whose frame is out (or that will show nothing: a failure, a switch). Any thread.
    public var jumpsOut: Int { jumpsOutCount.load(ordering: .acquiring) }

    /// The consumer of `output` is done with `frame` (filtered, encoded, handed to the outputs):
    /// when it carried out a seek, that seek is out.
    public func frameOut(_ frame: Frame) {
        condition.lock()
        defer { condition.unlock() }
        guard let delivered = deliveredJump, delivered.frame == ObjectIdentifier(frame) else { return }
        deliveredJump = nil
        jumpsOutCount.store(max(jumpsOutCount.load(ordering: .relaxed), delivered.ticket), ordering: .releasing)
    }

    /// Decode thread: `displaced` left `output` unseen for `frame`, which then carries its jump.
    func passJump(from displaced: Frame, to frame: Frame) {
        condition.lock()
        defer { condition.unlock() }
        guard let delivered = deliveredJump, delivered.frame == ObjectIdentifier(displaced) else { return }
        deliveredJump = (ObjectIdentifier(frame), delivered.ticket)
    }
}
