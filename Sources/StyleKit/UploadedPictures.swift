import MediaKit
import Synchronization

/// A picture someone uploaded that a server keeps by name — a style, a background —, made ready
/// (decoded, checked): what listings, thumbnails and its folder need of it.
public protocol UploadedPicture: Sendable {
    var name: String { get }
    /// The picture as it came: "JPEG" or "PNG", and its size.
    var format: String { get }
    var width: Int { get }
    var height: Int { get }
    /// What a picker shows of it: its centre at ``PictureThumbnail/size``, JPEG.
    var thumbnail: [UInt8] { get }
}

/// The uploaded pictures of one kind, at most ``capacity``, in the order they were added, by name.
///
/// Thread-safe: pictures are added and removed on the network thread and read by the threads
/// that validate commands and build filters.
public final class UploadedPictures<Picture: UploadedPicture>: Sendable {
    /// The most pictures held.
    public let capacity: Int
    private let pictures = Mutex<[Picture]>([])

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds `picture` after the others; false if one of its name is there or the shelf is full.
    @discardableResult
    public func add(_ picture: Picture) -> Bool {
        pictures.withLock { pictures in
            guard pictures.count < capacity, !pictures.contains(where: { $0.name == picture.name }) else { return false }
            pictures.append(picture)
            return true
        }
    }

    /// Removes the picture `name`; false if there is none.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        pictures.withLock { pictures in
            guard let index = pictures.firstIndex(where: { $0.name == name }) else { return false }
            pictures.remove(at: index)
            return true
        }
    }

    /// The picture `name`, if there is one.
    public func picture(named name: String) -> Picture? { pictures.withLock { $0.first { $0.name == name } } }

    /// The pictures, in the order they were added.
    public var all: [Picture] { pictures.withLock { $0 } }
}

/// A library of uploaded pictures a filter offers as the choices of one parameter (the `style`
/// filter's styles, `backgroundReplace`'s backgrounds): what the folder that keeps them on disk
/// and its routes need of it.
public protocol PictureLibrary: Sendable {
    associatedtype Picture: UploadedPicture
    /// What one picture is called in messages ("style", "background").
    static var noun: String { get }
    /// The pictures uploaded.
    var uploaded: UploadedPictures<Picture> { get }
    /// Why `name` cannot name an uploaded picture (nil: it can).
    static func problem(naming name: String) -> String?
    /// Where the thumbnail of the picture `name` is served.
    static func thumbnailPath(_ name: String) -> String
    /// `bytes` decoded, checked and made ready as the picture `name`. Blocks (a decode, perhaps a
    /// network run): a worker thread's job.
    func prepare(named name: String, picture bytes: [UInt8]) throws(PictureUploadError) -> Picture
}
