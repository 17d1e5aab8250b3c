import FilterKit

/// Why a picture is not taken as an upload (a style, a background): one line naming the problem.
public struct PictureUploadError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// The thumbnail of an uploaded picture.
public enum PictureThumbnail {
    /// The size of a thumbnail: the shipped styles' (`web/styles/`).
    public static let size = (width: 192, height: 112)

    /// `picture`'s centre at ``size``, as JPEG.
    public static func jpeg(of picture: StillPicture) throws(PictureUploadError) -> [UInt8] {
        let small = picture.frame(width: size.width, height: size.height)
        do {
            return try JPEGEncoder(width: small.width, height: small.height, quality: 70).encode(small)
        } catch {
            throw PictureUploadError(description: "the thumbnail cannot be made: \(error)")
        }
    }

    /// `bytes` decoded (``StillPicture``: JPEG or PNG, bounded), or why not.
    public static func decode(_ bytes: [UInt8]) throws(PictureUploadError) -> StillPicture {
        do {
            return try StillPicture(bytes)
        } catch {
            throw PictureUploadError(description: error.description)
        }
    }
}
