/// Which of a session's filter chains a command reads or changes: the **program** — what every
/// viewer sees, the only chain of a v1 server — or the **preview** of studio mode, which only
/// controllers see. Commands that take one (`saveLook.from`, `setFilter.to` with a `look`)
/// default to the program, so a client that never names one is unchanged.
public enum ChainTarget: String, Sendable, Equatable, CaseIterable {
    case program
    case preview
}
