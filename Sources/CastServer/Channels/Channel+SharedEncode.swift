import Logging
import MediaKit

/// One encode serves all: the publisher and filtered recordings may take an H.264 rendition's
/// access units instead of encoding the same frames again.
extension Channel {
    /// The H.264 rendition `choice` names for `option` (`--publish-rendition`, `--record-rendition`),
    /// whose encode a writer then shares: one encode for the page and the stream or file; nil for
    /// an encode of its own. `.sourceSize` is the `size` rendition, if the ladder has one. A name
    /// the ladder lacks is a start error that lists the ones it has.
    static func sharedEncode(_ choice: SharedRendition, option: String, of viewers: ViewerOutputs,
                             size: (width: Int, height: Int)) throws -> H264Stream? {
        let streams = viewers.h264.keys.sorted().map { viewers.h264[$0]! }
        switch choice {
        case .own:
            return nil
        case .sourceSize:
            guard let full = streams.first(where: { ($0.width, $0.height) == size }) else {
                Log.info("\(option): no full-size H.264 rendition to share; an encode of its own")
                return nil
            }
            return full
        case .named(let id):
            guard let stream = streams.first(where: { $0.rendition.id == id }) else {
                let names = streams.map(\.rendition.id) + ["own"]
                throw SharedRenditionError(description: "\(option) \(id): no such H.264 rendition; the choices are "
                                           + names.joined(separator: ", "))
            }
            return stream
        }
    }
}

/// `--publish-rendition` or `--record-rendition` names no H.264 rendition of the ladder.
struct SharedRenditionError: Error, CustomStringConvertible {
    let description: String
}
