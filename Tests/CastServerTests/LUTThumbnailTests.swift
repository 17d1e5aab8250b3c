@testable import CastServer
import FilterKit
import Foundation
import MediaKit
import Testing

/// Every LUT's thumbnail: ``LUTChart`` graded by it, made once when it is read or uploaded, named
/// by its choice, served to anyone at `/api/luts/NAME.jpg` and gone with the LUT.
@Suite struct LUTThumbnailTests {
    static let invert = "LUT_3D_SIZE 2\n1 1 1\n0 1 1\n1 0 1\n0 0 1\n1 1 0\n0 1 0\n1 0 0\n0 0 0\n"

    private func get(_ path: String, _ fixture: CoreFixture) -> (code: UInt32, type: String, body: [UInt8]) {
        switch fixture.router.answer(HTTPRequest(method: .get, path: path, arguments: [:])) {
        case .body(let code, let type, let bytes): (code, type, bytes)
        case .status(let code, let message, _): (code, "", Array(message.utf8))
        default: (0, "", [])
        }
    }

    /// PSNR (dB) of `jpeg`, decoded, against `frame`.
    private func psnr(_ jpeg: [UInt8], _ frame: Frame) throws -> Double {
        let decoded = try StillPicture(jpeg).frame(width: frame.width, height: frame.height)
        var squared = 0.0, count = 0
        for (ours, theirs) in zip(decoded.planes, frame.planes) {
            for row in 0..<theirs.height {
                for x in 0..<theirs.width {
                    squared += pow(Double(ours.row(row)[x]) - Double(theirs.row(row)[x]), 2)
                    count += 1
                }
            }
        }
        return 10 * log10(255 * 255 / max(squared / Double(count), 1e-9))
    }

    @Test func aLUTsThumbnailIsTheChartGradedByItServedToAnyoneAndGoneWithIt() throws {
        let fixture = try CoreFixture(luts: true)
        let luts = try #require(fixture.core.configuration.luts)
        for (name, text) in [("invert", Self.invert), ("plain", LUTFolderTests.identity)] {
            guard case .success(let checked) = luts.check(Array(text.utf8), name: name) else { Issue.record("\(name) refused"); return }
            _ = try luts.keep(checked, body: Array(text.utf8), name: name).get()
        }
        let lut = try #require(fixture.core.configuration.catalog.descriptor(named: "lut"))
        #expect(lut.params[0].choices?.map(\.thumbnail) == ["/api/luts/invert.jpg", "/api/luts/plain.jpg"])
        let chart = LUTChart.frame(graded: nil)
        let inverted = get("/api/luts/invert.jpg", fixture)
        #expect(inverted.code == 200 && inverted.type == "image/jpeg")
        #expect(try psnr(inverted.body, LUTChart.frame(graded: try CubeParser.parse(Array(Self.invert.utf8)))) >= 35)
        #expect(try psnr(inverted.body, chart) < 15, "the inverted chart is not the chart")
        let plain = get("/api/luts/plain.jpg", fixture)
        #expect(plain.code == 200)
        #expect(try psnr(plain.body, chart) >= 35)
        #expect(get("/api/luts/nope.jpg", fixture).code == 404 && get("/api/luts/invert", fixture).code == 404)

        #expect(fixture.router.answer(HTTPRequest(method: .delete, path: "/api/luts/invert", arguments: [:])).code == 200)
        #expect(get("/api/luts/invert.jpg", fixture).code == 404 && luts.library.thumbnail("invert") == nil)
        #expect(get("/api/luts/plain.jpg", fixture).code == 200)
    }

    @Test func theLUTsOfTheFolderHaveThemFromTheStart() throws {
        let path = NSTemporaryDirectory() + "luts-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(Self.invert.utf8).write(to: URL(fileURLWithPath: path + "/negative.cube"))
        let luts = try LUTFolder(path: path)
        #expect(luts.library.listing.map(\.thumbnail) == ["/api/luts/negative.jpg"])
        let jpeg = try #require(luts.library.thumbnail("negative"))
        #expect(try psnr(jpeg, LUTChart.frame(graded: try CubeParser.parse(Array(Self.invert.utf8)))) >= 35)
        #expect(luts.remove("negative") == nil && luts.library.thumbnail("negative") == nil)
        #expect(luts.remove("negative")?.status == 404)
    }

    @Test func withoutLutsTheThumbnailRouteSaysSo() throws {
        let fixture = try CoreFixture()
        let answer = get("/api/luts/x.jpg", fixture)
        #expect(answer.code == 404 && String(decoding: answer.body, as: UTF8.self).contains("--luts"))
    }
}
