/// Why a shelf does not take an item: the HTTP status and a one-line reason.
public struct ShelfRefusal: Error, Equatable, CustomStringConvertible {
    public let status: UInt32
    public let description: String

    public init(_ status: UInt32, _ description: String) {
        self.status = status
        self.description = description
    }
}

/// A folder of named things controllers add with `PUT` — colour LUTs (`--luts`), style pictures
/// (`--styles`) — each checked on a thread of its own before it is kept, then written into the
/// folder and offered at once (the catalog's choices follow). What the core's `PUT` needs of it;
/// the bodies are gathered in memory, so ``maximumBytes`` bounds each.
///
/// Threads: ``refusalToAdd(_:)`` and ``keep(_:body:name:)`` run on the network thread;
/// ``check(_:name:)`` on the checking thread (a parse, a decode, a network run: never on the
/// network thread).
public protocol UploadShelf: AnyObject, Sendable {
    /// What a body checked is.
    associatedtype Item: Sendable

    /// What one item is called in messages ("LUT", "style picture").
    var noun: String { get }
    /// What a body should be, for the refusal of an empty one ("a .cube file").
    var expected: String { get }
    /// The largest body taken.
    var maximumBytes: Int { get }
    /// The name of the checking thread ("lut-parse").
    var checkThreadName: String { get }

    /// Why an item named `name` cannot be added now (not a name: 400; taken: 409; full: 507).
    func refusalToAdd(_ name: String) -> ShelfRefusal?
    /// `body` checked and made ready (parsed, decoded), or why it is refused (400, 415…).
    func check(_ body: [UInt8], name: String) -> Result<Item, ShelfRefusal>
    /// Writes `body` (checked as `item`) into the folder and offers it; the JSON of the 201 answer.
    func keep(_ item: Item, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal>
}

/// Uploaded pictures offered as a filter's choices — the style pictures of `--styles`, the
/// backgrounds of `DATA/backgrounds` — as the routes need them besides their upload: listed, each
/// described, their thumbnails served, removed. (Made by the executable over StyleKit and MatteKit,
/// which this module does not see.) Network thread.
public protocol PictureShelf: UploadShelf {
    /// `GET /api/styles`' (`/api/backgrounds`') JSON body.
    var listing: [UInt8] { get }
    /// The JSON of the picture `name` as the listing has it; nil when there is none.
    func entry(_ name: String) -> [UInt8]?
    /// The JPEG thumbnail of the picture `name`; nil when there is none.
    func thumbnail(_ name: String) -> [UInt8]?
    /// Removes the picture `name` (its file and its choice); 404 when there is none.
    func remove(_ name: String) -> ShelfRefusal?
}
