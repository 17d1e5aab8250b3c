import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// An uploaded background made ready: a thumbnail, a copy bounded to 1920 a side (its shape
/// kept), frames of any size cut from it scaled to cover; what is no picture refused.
struct KeptPictureTests {
    @Test func aLargePictureIsKeptSmallerAndCoversAnyFrame() throws {
        let kept = try KeptPicture(try StillPictureTests.halves(width: 3200, height: 800, as: "png"))
        #expect((kept.format, kept.width, kept.height) == ("PNG", 3200, 800))
        let copy = try StillPicture(kept.copy)
        #expect((copy.width, copy.height, copy.format) == (1920, 480, "JPEG"))
        #expect(try StillPicture(kept.thumbnail).width == PictureThumbnail.size.width)
        // Covering a 4:3 frame: the centre of the 4:1 picture, its left half black, its right white.
        let frame = try #require(kept.frame(width: 320, height: 240))
        #expect((frame.width, frame.height) == (320, 240))
        let row = frame.y.row(120)
        #expect(row[8] < 30 && row[311] > 225, "\(row[8]) \(row[311])")
    }

    @Test func aSmallPictureIsKeptAtItsSize() throws {
        let kept = try KeptPicture(try StillPictureTests.halves(width: 64, height: 32, as: "jpg"))
        let copy = try StillPicture(kept.copy)
        #expect((copy.width, copy.height) == (64, 32))
    }

    @Test func whatIsNoPictureIsRefusedSayingWhy() throws {
        let jpeg = try StillPictureTests.halves(width: 64, height: 32, as: "jpg")
        for (bytes, reason) in [(Array("GIF89a".utf8), "not a JPEG or PNG"), (Array(jpeg.prefix(40)), "cannot be decoded")] {
            #expect { try KeptPicture(bytes) } throws: { error in "\(error)".contains(reason) }
        }
    }
}
