import FilterKit
import MediaKit

/// Why a picture is not taken as a style: one line naming the problem.
public struct StyleUploadError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// A picture someone uploaded as a style, made ready to paint with: its style code (the
/// predictor's 100 values for the picture's centre square at 256×256, computed once) and the
/// thumbnail a picker shows (its centre at ``thumbnailSize``, JPEG).
public struct UploadedStyle: Sendable {
    /// The size of a thumbnail: the shipped styles' (`web/styles/`).
    public static let thumbnailSize = (width: 192, height: 112)

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
    public init(named name: String, picture bytes: [UInt8], engine: StyleEngine) throws(StyleUploadError) {
        let picture: StillPicture
        do {
            picture = try StillPicture(bytes)
        } catch {
            throw StyleUploadError(description: error.description)
        }
        let side = StyleModel.predictorSide
        switch engine.code(of: picture.frame(width: side, height: side)) {
        case .success(let code): self.code = code
        case .failure(let reason): throw StyleUploadError(description: "the style network cannot run: \(reason)")
        }
        do {
            let small = picture.frame(width: Self.thumbnailSize.width, height: Self.thumbnailSize.height)
            thumbnail = try JPEGEncoder(width: small.width, height: small.height, quality: 70).encode(small)
        } catch {
            throw StyleUploadError(description: "the thumbnail cannot be made: \(error)")
        }
        self.name = name
        format = picture.format
        width = picture.width
        height = picture.height
    }
}
