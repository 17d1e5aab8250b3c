import Synchronization

/// "Filter the current frame again and show it": asked for by whoever changed what a frame
/// looks like while none may come — a filter change, pause or a recording's start (the session),
/// a newcomer (the transport), a chain whose tables finished warming (the filter runner) — and
/// served by the processing loop.
///
/// Requests are counted, not flagged: the loop notes the count at the start of a turn, before it
/// asks the outputs what they want, and serves exactly the requests made until then. One made
/// during the turn — a recording started after the recorder was asked — is served by the next
/// turn, which its wake-up brings.
final class RerenderRequest: Sendable {
    private let requests = Atomic<Int>(0)
    private let wake: @Sendable () -> Void

    /// `wake` makes the processing loop take its next turn at once (it pokes the player's queue).
    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Any thread.
    func request() {
        requests.add(1, ordering: .releasing)
        wake()
    }

    /// How many were made so far (the loop compares it with the count it last served).
    var count: Int { requests.load(ordering: .acquiring) }
}
