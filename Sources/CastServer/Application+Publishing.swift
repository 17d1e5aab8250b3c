import Logging
import MediaKit

extension Application {
    /// The publisher's log lines: one per change of its connection (any thread).
    @Sendable static func logPublishing(_ status: PublishStatus) {
        switch status.connection {
        case .connecting:
            Log.debug("publish: connecting", ["target": .string(status.target)])
        case .connected:
            Log.info("publish: connected", ["target": .string(status.target), "encoder": .string(status.encoder ?? "")])
        case .retrying:
            let delay = status.retryAt.map { max(0, ContinuousClock.now.duration(to: $0).seconds) } ?? 0
            Log.warning("publish: the connection failed: \(status.reason ?? "unknown")",
                        ["target": .string(status.target), "retry_in": .double((delay * 10).rounded() / 10)])
        case .stopped:
            Log.info("publish: stopped", ["target": .string(status.target)])
        }
    }
}
