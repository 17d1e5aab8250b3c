import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// Uploaded still pictures: JPEG and PNG decoded, their centre cut at any shape; anything else,
/// too large or damaged refused naming the problem, before a decoder allocates for it.
struct StillPictureTests {
    /// A picture made by the ffmpeg CLI: the left half black, the right half white (`width × height`).
    static func halves(width: Int, height: Int, as format: String) throws -> [UInt8] {
        let file = TestClips.path("halves-\(width)x\(height).\(format)")
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "color=black:s=\(width)x\(height),drawbox=x=\(width / 2):w=\(width / 2):color=white:t=fill",
                              "-frames:v", "1", "-update", "1", file])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    @Test(arguments: ["jpg", "png"]) func decodesAndCutsTheCentre(format: String) throws {
        let picture = try StillPicture(try Self.halves(width: 400, height: 100, as: format))
        #expect((picture.width, picture.height, picture.format) == (400, 100, format == "jpg" ? "JPEG" : "PNG"))
        // The centre square of a 4:1 picture: 100x100 around the middle, half black, half white.
        let square = picture.frame(width: 64, height: 64)
        let row = square.y.row(32)
        #expect(row[4] < 30 && row[59] > 225, "\(row[4]) \(row[59])")
        #expect(StillPicture.centre(of: (400, 100), shaped: (1, 1)) == (100, 100))
        #expect(StillPicture.centre(of: (100, 400), shaped: (192, 112)) == (100, 58))
    }

    @Test func refusesWhatIsNoPictureOrTooLargeOrTooSmall() throws {
        let jpeg = try Self.halves(width: 64, height: 32, as: "jpg")
        let cases: [([UInt8], String)] = [
            ([], "not a JPEG or PNG"),
            (Array("GIF89a".utf8), "not a JPEG or PNG"),
            (Array(jpeg.prefix(40)), "cannot be decoded"),
            (try Self.halves(width: 4100, height: 16, as: "png"), "at most 4096"),
            (try Self.halves(width: 8, height: 8, as: "png"), "at least 16"),
        ]
        for (bytes, reason) in cases {
            #expect { try StillPicture(bytes) } throws: { error in "\(error)".contains(reason) }
        }
    }
}
