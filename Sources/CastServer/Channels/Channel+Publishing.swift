import Logging
import MediaKit

extension Channel {
    /// The publisher's log lines: one per change of its connection, carrying `log`'s fields (any thread).
    @Sendable static func logPublishing(_ status: PublishStatus, log: LogScope) {
        switch status.connection {
        case .connecting:
            log.debug("publish: connecting", ["target": .string(status.target)])
        case .connected:
            log.info("publish: connected", ["target": .string(status.target), "encoder": .string(status.encoder ?? "")])
        case .retrying:
            let delay = status.retryAt.map { max(0, ContinuousClock.now.duration(to: $0).seconds) } ?? 0
            log.warning("publish: the connection failed: \(status.reason ?? "unknown")",
                        ["target": .string(status.target), "retry_in": .double((delay * 10).rounded() / 10)])
        case .stopped:
            log.info("publish: stopped", ["target": .string(status.target)])
        }
    }
}
