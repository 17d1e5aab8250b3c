import Foundation

/// Turns taken in the order they were asked for: the network runs of every channel's style
/// worker, one at a time. A plain mutex re-taken in a loop by one worker starved the others —
/// four channels' workers waited for minutes while one channel's painted on (its unlock and the
/// next lock a few instructions apart; a waiter woken by the unlock found it taken again).
///
/// Thread-safe; a turn is not re-entrant.
final class FairTurns: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var nextTicket = 0
    private var serving = 0

    /// Runs `body` when every turn asked for before this one has ended.
    func withTurn<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        while serving != ticket { condition.wait() }
        condition.unlock()
        defer {
            condition.lock()
            serving += 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
