import FilterKit
import MediaKit

/// A picture someone uploaded as a style, made ready to paint with: its style code (the
/// predictor's 100 values for the picture's centre square at 256×256, computed once) and the
/// thumbnail a picker shows (``PictureThumbnail``).
public struct UploadedStyle: UploadedPicture {
    public let name: String
    let code: [Float]
    public let thumbnail: [UInt8]
    /// The picture as it came: "JPEG" or "PNG", and its size.
    public let format: String
    public let width: Int
    public let height: Int

    /// Decodes `bytes` (``StillPicture``: JPEG or PNG, bounded) and computes its style code with
    /// `engine`. Blocks for a decode and a network run (tens of milliseconds; the first one also
    /// loads the runtime and compiles the predictor): a worker thread's job.
    public init(named name: String, picture bytes: [UInt8], engine: StyleEngine) throws(PictureUploadError) {
        let picture = try PictureThumbnail.decode(bytes)
        let side = StyleModel.predictorSide
        switch engine.code(of: picture.frame(width: side, height: side)) {
        case .success(let code): self.code = code
        case .failure(let reason): throw PictureUploadError(description: "the style network cannot run: \(reason)")
        }
        thumbnail = try PictureThumbnail.jpeg(of: picture)
        self.name = name
        format = picture.format
        width = picture.width
        height = picture.height
    }
}
