import FilterKit
import Foundation
@testable import StyleKit
import Testing

/// A picture uploaded as a style: its code computed once, a choice of the `style` filter, painting
/// through the arbitrary-style network; bad pictures refused naming the problem.
@Suite(.serialized) struct UploadedStyleTests {
    static let photos = "/usr/share/doc/opencv-doc/examples/data/"

    static func picture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: photos + name)))
    }

    @Test func aPictureBecomesAStyleThatPaintsTheFrameItsOwnWay() throws {
        let library = StyleLibrary(engine: StyleFilterTests.engine)
        let starry = try UploadedStyle(named: "starry", picture: try Self.picture("starry_night.jpg"), engine: library.engine)
        #expect(starry.code.count == 100 && starry.code.allSatisfy(\.isFinite))
        #expect((starry.format, starry.width, starry.height) == ("JPEG", 752, 600))
        #expect(library.uploaded.add(starry))
        #expect(!library.uploaded.add(starry), "a name is taken once")
        let source = try naturalFrame(width: 320, height: 180)
        let painted = samples(try StyleFilterTests.styled(source, ["style": "starry", "detail": 0], library: library))
        let again = samples(try StyleFilterTests.styled(source, ["style": "starry", "detail": 0], library: library))
        let shipped = samples(try StyleFilterTests.styled(source, ["style": "style-1", "detail": 0], library: library))
        #expect(meanDifference(painted, samples(source)) > 8, "the picture changed")
        #expect(painted == again, "deterministic")
        #expect(meanDifference(painted, shipped) > 4, "not a shipped style")
    }

    @Test func theCodeIsThePictures() throws {
        let engine = StyleFilterTests.engine
        let first = try UploadedStyle(named: "a", picture: try Self.picture("starry_night.jpg"), engine: engine)
        let second = try UploadedStyle(named: "b", picture: try Self.picture("starry_night.jpg"), engine: engine)
        let other = try UploadedStyle(named: "c", picture: try Self.picture("fruits.jpg"), engine: engine)
        #expect(first.code == second.code)
        #expect(zip(first.code, other.code).map { abs($0 - $1) }.reduce(0, +) > 1)
        #expect(first.thumbnail.starts(with: [0xFF, 0xD8, 0xFF]) && first.thumbnail.count < 20_000)
    }

    @Test func theChoicesFollowTheLibrary() throws {
        let library = StyleLibrary(engine: StyleFilterTests.engine)
        let catalog = StyleCatalog.with(library)
        #expect(throws: FilterError.self) { try FilterSettings(name: "style", parameters: ["style": "starry"], catalog: catalog) }
        library.uploaded.add(try UploadedStyle(named: "starry", picture: try Self.picture("starry_night.jpg"), engine: library.engine))
        let choices = catalog.descriptor(named: "style")!.params[0].choices!
        #expect(choices.count == 27 && choices.last == ParameterDescriptor.Choice(id: "starry", label: "starry", thumbnail: "/api/styles/starry.jpg"))
        #expect(throws: Never.self) { try FilterSettings(name: "style", parameters: ["style": "starry"], catalog: catalog) }
        #expect(library.uploaded.remove("starry") && !library.uploaded.remove("starry"))
        #expect(catalog.descriptor(named: "style")!.params[0].choices!.count == 26)
    }

    @Test func namesAreCheckedAndShippedOnesReserved() {
        #expect(StyleLibrary.problem(naming: "starry_night-2") == nil)
        #expect(StyleLibrary.problem(naming: "style-3")?.contains("shipped") == true)
        #expect(StyleLibrary.problem(naming: "Starry")?.contains("not a style name") == true)
        #expect(StyleLibrary.problem(naming: String(repeating: "a", count: 33)) != nil)
    }

    @Test func whatIsNoPictureIsRefusedNamingWhy() throws {
        let engine = StyleFilterTests.engine
        let cases: [([UInt8], String)] = [
            (Array("hello".utf8), "not a JPEG or PNG"),
            (Array(try Self.picture("starry_night.jpg").prefix(600)), "cannot be decoded"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "cannot be decoded"),
        ]
        for (bytes, reason) in cases {
            #expect { try UploadedStyle(named: "x", picture: bytes, engine: engine) } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }
}
