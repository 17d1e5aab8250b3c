import FilterKit
import MediaKit
import StyleKit

/// A picture someone uploaded as a background of `backgroundReplace`, checked and made ready
/// (``KeptPicture``: a thumbnail and a bounded copy, cut to cover each frame size).
public struct UploadedBackground: UploadedPicture {
    public let name: String
    let picture: KeptPicture

    public var format: String { picture.format }
    public var width: Int { picture.width }
    public var height: Int { picture.height }
    public var thumbnail: [UInt8] { picture.thumbnail }

    /// Decodes `bytes` and makes it ready (blocks: a worker thread's job).
    public init(named name: String, picture bytes: [UInt8]) throws(PictureUploadError) {
        picture = try KeptPicture(bytes)
        self.name = name
    }

    /// The background of a frame of `width × height` (see ``KeptPicture/frame(width:height:)``).
    func frame(width: Int, height: Int) -> Frame? { picture.frame(width: width, height: height) }
}

/// The backgrounds uploaded to `backgroundReplace` (at most ``capacity``): each a choice of its
/// `background` parameter beside the colours, at once (``MatteCatalog``).
///
/// Thread-safe: backgrounds are added and removed on the network thread and read by the threads
/// that validate commands and build filters.
public final class BackgroundLibrary: PictureLibrary {
    /// The most uploaded backgrounds a library holds.
    public static let capacity = 16

    public let uploaded = UploadedPictures<UploadedBackground>(capacity: capacity)

    public init() {}

    public static var noun: String { "background" }

    /// Why `name` cannot name an uploaded background: not 1–32 of `a-z 0-9 _ -` (the LUTs' rule),
    /// or a colour's id.
    public static func problem(naming name: String) -> String? {
        guard LUTLibrary.isValidName(name) else {
            return "'\(name.prefix(40))' is not a background name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -"
        }
        if BackgroundReplaceFilter.colours.contains(where: { $0.choice.id == name }) { return "'\(name)' is a colour's name" }
        return nil
    }

    public static func thumbnailPath(_ name: String) -> String { "/api/backgrounds/\(name).jpg" }

    public func prepare(named name: String, picture bytes: [UInt8]) throws(PictureUploadError) -> UploadedBackground {
        try UploadedBackground(named: name, picture: bytes)
    }

    /// The choices of `backgroundReplace`'s `background` now: the colours, then the uploads.
    var choices: [ParameterDescriptor.Choice] {
        BackgroundReplaceFilter.colours.map(\.choice)
            + uploaded.all.map { ParameterDescriptor.Choice(id: $0.name, label: $0.name, thumbnail: Self.thumbnailPath($0.name)) }
    }
}
