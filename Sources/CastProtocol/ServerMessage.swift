import FilterKit
import Foundation

/// A text message from the server to clients; ``encoded()`` gives the bytes to send.
///
/// ```
/// {"type":"hello","version":1,"server":"filtercast/0.1","access":"control","filters":[…],"state":{…},
///  "maxChainLength":8,"categories":{"blur":"Blur",…},"errors":{"out_of_range":"Out of range",…},
///  "transports":["jpeg","h264"],"renditions":[{"id":"jpeg-720p","transport":"jpeg","width":1280,…},…],
///  "mediaFolder":true,"audio":{"codec":"opus","channels":2,"rate":48000}}
/// {"type":"state","source":{…},"playing":true,…}      (the state object's keys beside "type")
/// {"type":"error","code":"out_of_range","message":"…","id":7}   ("id" only when the command had one)
/// {"type":"ack","id":"a1"}
/// {"type":"ack","id":"a2","access":"admin"}          (the answer to auth: what the client may do now)
/// {"type":"keyframeRequest"}                          (to a client sharing its camera)
/// {"type":"shareEnded","reason":"…"}
/// {"type":"catalog","filters":[…]}                   (the catalog changed: a LUT was added)
/// {"type":"looks","looks":[{"name":"warm","created":"…"},…]}   (the saved looks changed)
/// {"type":"renditions","renditions":[…]}             (another size of source plays)
/// {"type":"activity","id":4,"at":"…","position":1.2,"frame":30,"by":{"id":"p1","name":"Ana"},"what":"setFilter","summary":"…"}
/// {"type":"pointer","by":{"id":"p1","name":"Ana"},"x":0.4,"y":0.5}   (x, y null: hidden)
/// {"type":"comments","source":"media/a.mp4","comments":[{"id":"c…","author":{…},"frame":30,…},…]}
/// {"type":"comments","source":"media/a.mp4","changed":{…}}   or   …,"deleted":"c…"}
/// ```
public enum ServerMessage: Sendable, Encodable {
    /// The first message on every connection: the protocol version, what this client may do,
    /// the filter catalog (the same objects as `filtercast filters --json`) and the current state;
    /// also what a page would otherwise restate: the longest chain, the category headings and the
    /// error codes' names.
    /// `renditions` are the encodings a client may `watch` (their transports are listed in
    /// `transports`, JPEG first); a client that says nothing gets the first JPEG one.
    /// `features`: what else the server has (``ServerFeatures``: a media folder, uploads, sound).
    case hello(filters: [FilterDescriptor], state: SessionState, access: ViewerAccess, renditions: [Rendition],
               features: ServerFeatures = ServerFeatures())
    case state(SessionState)
    case error(ProtocolError)
    /// A command was carried out.
    case ack(MessageID)
    /// `auth` was accepted: its `ack`, with what the client may do now (v1 addition: a client that
    /// ignores unknown keys sees a plain `ack`).
    case authorized(MessageID, access: ViewerAccess)
    /// To the client that shares its camera: pictures were dropped (the server fell behind, or
    /// one did not decode); send a keyframe next.
    case keyframeRequest
    /// To the client that shared its camera: it is no longer the source, and why (stopped by
    /// the server: taken over, the limits, silence).
    case shareEnded(reason: String)
    /// The filter catalog changed while the client was connected (a LUT was added: a new choice
    /// of `lut`): the whole catalog, as `hello.filters` gives it.
    case catalog(filters: [FilterDescriptor])
    /// The saved looks changed (one saved, replaced or deleted): every look's name and creation
    /// time, in name order; `GET /api/looks` gives their chains.
    case looks([LookEntry])
    /// The renditions' sizes (and H.264 caps) changed: a source of another size plays. The same
    /// renditions as `hello.renditions` (same ids, same order), at their new sizes.
    case renditions([Rendition])
    /// Someone changed the channel's shared state (v1 addition): who, what, when, at which frame.
    case activity(ActivityEntry)
    /// A controller's laser pointer moved (nil: hidden) (v1 addition).
    case pointer(by: Author, at: PointerPosition?)
    /// The comments of the source that plays (v1 addition): the whole list (after `hello`, and
    /// when another source plays).
    case comments(source: String, [Comment])
    /// One comment added or changed (`comment`: as it is now), or deleted (`deleted`: its id) (v1 addition).
    case commentChanged(source: String, comment: Comment?, deleted: String?)

    private enum CodingKeys: String, CodingKey {
        case type, version, server, access, filters, state, code, message, id, reason
        case maxChainLength, categories, errors, transports, renditions, mediaFolder, uploads, audio, channel, looks, regions
        case by, x, y, source, comments, changed, deleted
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hello(let filters, let state, let access, let renditions, let features):
            try container.encode("hello", forKey: .type)
            try container.encode(ProtocolVersion.number, forKey: .version)
            try container.encode(ProtocolVersion.serverName, forKey: .server)
            try container.encode(access, forKey: .access)
            try container.encode(filters, forKey: .filters)
            try container.encode(state, forKey: .state)
            try container.encode(FilterChain.maximumLength, forKey: .maxChainLength)
            try container.encode(Self.categoryTitles, forKey: .categories)
            try container.encode(Self.errorTitles, forKey: .errors)
            try container.encode(FrameTransport.allCases.filter { transport in renditions.contains { $0.transport == transport } },
                                 forKey: .transports)
            try container.encode(renditions, forKey: .renditions)
            try container.encode(features.mediaFolder, forKey: .mediaFolder)
            try container.encodeIfPresent(features.uploads, forKey: .uploads)
            try container.encode(features.audio, forKey: .audio)
            try container.encodeIfPresent(features.channel, forKey: .channel)
            if features.looks { try container.encode(true, forKey: .looks) }
            try container.encodeIfPresent(features.regions?.map(\.rawValue), forKey: .regions)
        case .state(let state):
            try container.encode("state", forKey: .type)
            // The state's own keys go into this same object, beside "type".
            try state.encode(to: encoder)
        case .error(let error):
            try container.encode("error", forKey: .type)
            try container.encode(error.code, forKey: .code)
            try container.encode(error.message, forKey: .message)
            try container.encodeIfPresent(error.id, forKey: .id)
        case .ack(let id):
            try container.encode("ack", forKey: .type)
            try container.encode(id, forKey: .id)
        case .authorized(let id, let access):
            try container.encode("ack", forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(access, forKey: .access)
        case .keyframeRequest:
            try container.encode("keyframeRequest", forKey: .type)
        case .shareEnded(let reason):
            try container.encode("shareEnded", forKey: .type)
            try container.encode(reason, forKey: .reason)
        case .catalog(let filters):
            try container.encode("catalog", forKey: .type)
            try container.encode(filters, forKey: .filters)
        case .renditions(let renditions):
            try container.encode("renditions", forKey: .type)
            try container.encode(renditions, forKey: .renditions)
        case .looks(let looks):
            try container.encode("looks", forKey: .type)
            try container.encode(looks, forKey: .looks)
        case .activity, .pointer, .comments, .commentChanged:
            try encodeRoomMessage(to: encoder)
        }
    }

    /// The review room's messages (v1 additions): `activity`, `pointer`, `comments`.
    private func encodeRoomMessage(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .activity(let entry):
            try container.encode("activity", forKey: .type)
            // The entry's own keys go into this same object, beside "type".
            try entry.encode(to: encoder)
        case .pointer(let by, let position):
            try container.encode("pointer", forKey: .type)
            try container.encode(by, forKey: .by)
            try container.encode(position?.x, forKey: .x)
            try container.encode(position?.y, forKey: .y)
        case .comments(let source, let comments):
            try container.encode("comments", forKey: .type)
            try container.encode(source, forKey: .source)
            try container.encode(comments, forKey: .comments)
        case .commentChanged(let source, let comment, let deleted):
            try container.encode("comments", forKey: .type)
            try container.encode(source, forKey: .source)
            try container.encodeIfPresent(comment, forKey: .changed)
            try container.encodeIfPresent(deleted, forKey: .deleted)
        default:
            break
        }
    }

    /// `hello.categories`: every filter category's heading, by category name.
    private static let categoryTitles = Dictionary(uniqueKeysWithValues: FilterDescriptor.Category.allCases.map { ($0.rawValue, $0.title) })

    /// `hello.errors`: every error code's name, by code.
    private static let errorTitles = Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, $0.title) })

    /// UTF-8 JSON bytes of the message, keys sorted. A few microseconds for `state`; `hello`
    /// costs more (the catalog) but is sent once per connection.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self))
        } catch {
            // Only a number that is not finite fails to encode; the state encodes its own numbers
            // safely and a catalog's ranges are finite, so this is a bug in the catalog.
            preconditionFailure("server message is not encodable as JSON: \(error)")
        }
    }
}
