import FilterKit

/// An uploaded picture made ready to keep and use as the background of frames of any size: its
/// format and size as it came, its thumbnail, and a copy of at most ``maximumSide`` pixels a side
/// (its shape kept, as JPEG: some hundreds of kilobytes however large the upload) from which a
/// frame of any size is cut (``frame(width:height:)``: scaled to cover it).
///
/// Meant for untrusted bytes: decoded by ``StillPicture`` (JPEG or PNG, bounded), refused naming
/// the problem otherwise (fuzzed: FuzzKeptPicture). A value: any thread may cut frames from it.
public struct KeptPicture: Sendable {
    /// The longest side of the copy kept: a 1080p frame's width.
    public static let maximumSide = 1920

    /// "JPEG" or "PNG".
    public let format: String
    public let width: Int
    public let height: Int
    /// Its centre at ``PictureThumbnail/size``, JPEG.
    public let thumbnail: [UInt8]
    /// The copy kept, JPEG.
    public let copy: [UInt8]

    /// Decodes `bytes` and makes the thumbnail and the copy. Blocks for a decode and two encodes
    /// (tens of milliseconds): a worker thread's job.
    public init(_ bytes: [UInt8]) throws(PictureUploadError) {
        let picture = try PictureThumbnail.decode(bytes)
        thumbnail = try PictureThumbnail.jpeg(of: picture)
        let scale = min(1, Double(Self.maximumSide) / Double(max(picture.width, picture.height)))
        let side = { (length: Int) in max(StillPicture.minimumSide, Int(Double(length) * scale) & ~1) }
        let small = picture.frame(width: side(picture.width), height: side(picture.height))
        do {
            copy = try JPEGEncoder(width: small.width, height: small.height, quality: 90).encode(small)
        } catch {
            throw PictureUploadError(description: "the picture cannot be kept: \(error)")
        }
        format = picture.format
        width = picture.width
        height = picture.height
    }

    /// The picture at `width × height`: its centre at that shape, scaled to that size. Decodes the
    /// copy kept (milliseconds); nil if it does not decode (it did when it was made).
    public func frame(width: Int, height: Int) -> Frame? {
        try? StillPicture(copy).frame(width: width, height: height)
    }
}
