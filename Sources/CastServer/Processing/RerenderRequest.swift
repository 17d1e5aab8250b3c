import Synchronization

/// "Filter the current frame again and show it": asked for by whoever changed what a frame
/// looks like while none may come — a filter change or pause (the session), a newcomer (the
/// transport), a chain whose tables finished warming (the filter runner) — and served by the
/// processing loop, which consumes it on its next turn without a frame.
final class RerenderRequest: Sendable {
    private let requested = Atomic<Bool>(false)
    private let wake: @Sendable () -> Void

    /// `wake` makes the processing loop take its next turn at once (it pokes the player's queue).
    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Any thread.
    func request() {
        requested.store(true, ordering: .releasing)
        wake()
    }

    /// The loop: whether one was asked for since the last call (and forget it).
    func consume() -> Bool { requested.exchange(false, ordering: .acquiring) }

    /// The loop: a fresh frame went out, which shows the change by itself.
    func served() { requested.store(false, ordering: .relaxed) }
}
