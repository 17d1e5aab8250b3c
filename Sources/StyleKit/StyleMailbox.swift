import FilterKit
import Foundation

/// What a ``StyleRefresher``'s frame paths and its worker hand each other, latest wins both ways:
/// the newest frame submitted (one slot: a newer one replaces it) and the newest stylization
/// published (swapped in by the worker, copied out by each frame path). Frames and stylizations
/// are allocated once per size, so a steady stream allocates nothing.
///
/// Thread-safe: everything under one lock, held only for a copy or a swap, never for a run.
final class StyleMailbox: @unchecked Sendable {
    /// A submission, as the worker takes it.
    struct Job {
        let number: Int
        let style: PaintingStyle
        /// The worker's history starts over: a seek, or another style.
        let restart: Bool
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var inbox: Frame?
    private var waiting: Job?
    private var submitted = 0
    private var lastStyle: PaintingStyle?
    private var newest: Stylization?
    private var publishedCount = 0
    private var publishedNumber = 0
    private var failed: StyleUnavailable?
    private var closed = false

    /// Copies `frame` into the inbox for `style`, replacing a frame still waiting (whose start
    /// over, if it was one, carries on); the submission's number.
    func submit(_ frame: Frame, style: PaintingStyle) -> Int {
        condition.lock()
        defer { condition.unlock() }
        if inbox?.width != frame.width || inbox?.height != frame.height { inbox = Frame(width: frame.width, height: frame.height) }
        inbox!.copy(from: frame)
        submitted += 1
        let restart = frame.isDiscontinuity || style != lastStyle || (waiting?.restart ?? false)
        waiting = Job(number: submitted, style: style, restart: restart)
        lastStyle = style
        condition.broadcast()
        return submitted
    }

    /// The worker's next job, its frame swapped into `frame` (the one it painted goes back to the
    /// inbox); waits for one; nil once closed.
    func take(into frame: inout Frame?) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil && !closed { condition.wait() }
        guard !closed, let job = waiting else { return nil }
        waiting = nil
        swap(&inbox, &frame)
        return job
    }

    /// Makes `stylization` the newest (the one it replaces comes back, to be painted over).
    func publish(_ stylization: inout Stylization?) {
        condition.lock()
        defer { condition.unlock() }
        publishedNumber = stylization!.number
        swap(&newest, &stylization)
        publishedCount += 1
        condition.broadcast()
    }

    /// The network failed: `wait` returns from now on.
    func fail(_ error: StyleUnavailable) {
        condition.lock()
        defer { condition.unlock() }
        failed = error
        condition.broadcast()
    }

    /// Copies the newest stylization into `copy` when it is newer (remade at another size).
    func newest(into copy: inout Stylization?) {
        condition.lock()
        defer { condition.unlock() }
        guard let newest, newest.number != copy?.number else { return }
        if copy?.size != newest.size { copy = Stylization(size: newest.size) }
        copy!.copy(from: newest)
    }

    /// Waits until the submission `number` (or a later one) was published, the network failed, the
    /// mailbox closed or `deadline` passed (nil: none).
    func wait(for number: Int, until deadline: Date? = nil) {
        condition.lock()
        defer { condition.unlock() }
        while publishedNumber < number && failed == nil && !closed {
            guard let deadline else {
                condition.wait()
                continue
            }
            if !condition.wait(until: deadline) { return }
        }
    }

    var published: Int { condition.withLock { publishedCount } }
    var failure: StyleUnavailable? { condition.withLock { failed } }

    /// Ends the worker after its run in progress.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }
}
