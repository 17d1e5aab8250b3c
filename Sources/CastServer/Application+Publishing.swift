import Logging
import MediaKit

extension Application {
    /// Makes the published stream the H.264 rendition `choice` names, when it names one: one
    /// encode for the page and the media server. A name the ladder lacks is a start error that
    /// lists the ones it has.
    static func share(_ choice: PublishRendition, of viewers: ViewerOutputs, with publisher: Publisher) throws {
        let streams = viewers.h264.keys.sorted().map { viewers.h264[$0]! }
        switch choice {
        case .own:
            return
        case .sourceSize:
            guard let full = streams.first(where: { $0.width == publisher.width && $0.height == publisher.height }) else {
                return Log.info("publish: no full-size H.264 rendition to share; the stream has an encoder of its own")
            }
            publisher.share(full)
        case .named(let id):
            guard let stream = streams.first(where: { $0.rendition.id == id }) else {
                let names = streams.map(\.rendition.id) + ["own"]
                throw PublishRenditionError(description: "--publish-rendition \(id): no such H.264 rendition; the choices are "
                                            + names.joined(separator: ", "))
            }
            publisher.share(stream)
        }
    }

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

/// `--publish-rendition` names no H.264 rendition of the ladder.
struct PublishRenditionError: Error, CustomStringConvertible {
    let description: String
}
