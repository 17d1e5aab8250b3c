import FilterKit
import Foundation
import Testing

/// `.cube` files case by case: what is taken, and every refusal with its line and reason.
@Suite struct CubeParserTests {
    /// The identity of size 2 as a file: red fastest.
    static let identity2 = """
        0 0 0
        1 0 0
        0 1 0
        1 1 0
        0 0 1
        1 0 1
        0 1 1
        1 1 1
        """

    private func parse(_ text: String) throws(CubeError) -> CubeLUT { try CubeParser.parse(Array(text.utf8)) }

    private func refusal(_ text: String) -> CubeError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test func takesAFileWithEveryKeywordCommentsAndBlankLines() throws {
        let lut = try parse("# made by hand\r\nTITLE \"Warm look\"\r\n\r\nLUT_3D_SIZE 2\r\nDOMAIN_MIN 0 0 0\r\nDOMAIN_MAX 1 1 1\r\n"
                            + "  # the table\r\n" + Self.identity2.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        #expect(lut.size == 2 && lut.title == "Warm look")
        #expect(lut.domainMin == [0, 0, 0] && lut.domainMax == [1, 1, 1])
        #expect(lut == CubeLUT.identity(size: 2) || lut.values == CubeLUT.identity(size: 2).values)
    }

    @Test func takesCRLineEndsTabsExponentsAndAnInputRange() throws {
        let body = Self.identity2.replacingOccurrences(of: " ", with: "\t").replacingOccurrences(of: "1", with: "1.0e0")
        let lut = try parse("LUT_3D_INPUT_RANGE 0 1\rLUT_3D_SIZE 2\r" + body.replacingOccurrences(of: "\n", with: "\r"))
        #expect(lut.values == CubeLUT.identity(size: 2).values && lut.domainMax == [1, 1, 1])
    }

    @Test func takesAWiderDomainAndValuesWithinIt() throws {
        let lut = try parse("DOMAIN_MIN -1 -1 -1\nDOMAIN_MAX 2 2 2\nLUT_3D_SIZE 2\n" + Self.identity2.replacingOccurrences(of: "1 1 1", with: "2 -1 1.5"))
        #expect(lut.domainMin == [-1, -1, -1] && lut.values.suffix(3) == [2, -1, 1.5])
    }

    @Test func takesTheLargestSizeAndIsExact() throws {
        let size = 65
        var lines = ["LUT_3D_SIZE \(size)"]
        for b in 0..<size { for g in 0..<size { for r in 0..<size { lines.append("\(Double(r) / 64) \(Double(g) / 64) \(Double(b) / 64)") } } }
        let lut = try parse(lines.joined(separator: "\n"))
        #expect(lut.values == CubeLUT.identity(size: size).values)
    }

    @Test(arguments: [
        // (file, line, words the reason must contain)
        ("LUT_3D_SIZE 2\n0 0 0\n1 0 0", 3, ["2 entries", "needs 8"]),
        ("LUT_3D_SIZE 2\n" + identity2 + "\n0 0 0", 10, ["more entries", "8"]),
        ("LUT_3D_SIZE 2\n0 0 0\n1 0 0 0", 3, ["3 numbers", "not 4"]),
        ("LUT_3D_SIZE 2\n0 0 0\n1 0", 3, ["3 numbers", "not 2"]),
        ("LUT_3D_SIZE 2\n0 0 0\n1 0 1.5", 3, ["1.5", "outside the domain"]),
        ("LUT_3D_SIZE 2\n0 -0.1 0", 2, ["-0.1", "outside the domain"]),
        ("LUT_3D_SIZE 2\n0 0 0\n1 x 0", 3, ["'x'", "not a number"]),
        ("LUT_3D_SIZE 2\n0 0 nan", 2, ["'nan'", "not a number"]),
        ("LUT_3D_SIZE 2\n0 0 1e999", 2, ["'1e999'", "not a number"]),
        ("LUT_3D_SIZE 2\n0 0 0x1", 2, ["'0x1'", "not a number"]),
        ("0 0 0\nLUT_3D_SIZE 2", 1, ["before LUT_3D_SIZE"]),
        ("TITLE \"x\"\n", 0, ["no LUT_3D_SIZE"]),
        ("", 0, ["no LUT_3D_SIZE"]),
        ("LUT_3D_SIZE 1\n", 1, ["LUT_3D_SIZE 1", "out of range", "2 to 65"]),
        ("LUT_3D_SIZE 66\n", 1, ["LUT_3D_SIZE 66", "out of range"]),
        ("LUT_3D_SIZE 2.5\n", 1, ["one whole number"]),
        ("LUT_3D_SIZE\n", 1, ["one whole number"]),
        ("LUT_3D_SIZE 2\nLUT_3D_SIZE 3\n", 2, ["twice"]),
        ("LUT_1D_SIZE 1024\n", 1, ["1D LUT"]),
        ("LUT_3D_SIZE 2\nGAMMA 2.2\n", 2, ["unknown keyword 'GAMMA'"]),
        ("LUT_3D_SIZE 2\n0 0 0\nTITLE \"late\"", 3, ["after the table"]),
        ("DOMAIN_MIN 0 0\n", 1, ["DOMAIN_MIN takes 3 numbers"]),
        ("DOMAIN_MIN 0 1 0\nDOMAIN_MAX 1 1 1\nLUT_3D_SIZE 2\n0 0 0", 2, ["minimum 1.0", "not below", "maximum 1.0"]),
        ("DOMAIN_MIN 2 2 2\nLUT_3D_SIZE 2\n0 0 0", 1, ["minimum 2.0", "not below"]),
        ("TITLE \"open\nLUT_3D_SIZE 2", 1, ["closing quote"]),
        // A file cut short by a crash or a full disk: zeros where the table went on.
        ("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1\u{0}\u{0}\u{0}", 4, ["byte 0x0 is not text", "2 of 8 entries", "cut short"]),
        ("\u{1}\u{2}PNG\u{7F}", 1, ["byte 0x1 is not text", "not a .cube file"]),
        ("LUT_3D_SIZE 2\nGAMMA\u{E9}\u{FF}", 2, ["unknown keyword 'GAMMA\\xC3\\xA9\\xC3\\xBF'"]),
    ])
    func refusesWithTheLineAndTheReason(_ file: String, _ line: Int, _ words: [String]) throws {
        let error = try #require(refusal(file))
        #expect(error.line == line, "\(error)")
        for word in words { #expect(error.reason.contains(word), "\(error)") }
        #expect(error.description == (line > 0 ? "line \(line): \(error.reason)" : error.reason))
    }

    @Test func refusesAFileTooBigBeforeReadingIt() {
        let error = CubeParser.maximumBytes + 1
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: error)
        #expect(throws: CubeError(line: 0, reason: "the file is too big: \(error) bytes, at most \(CubeParser.maximumBytes)")) {
            try CubeParser.parse(bytes)
        }
    }

    @Test func refusesALineTooLong() {
        let error = refusal("LUT_3D_SIZE 2\n#" + String(repeating: "x", count: CubeParser.maximumLineBytes))
        #expect(error?.line == 2 && error?.reason.contains("longer than") == true)
    }

    @Test func interpolatesTetrahedrallyAsLut3d() {
        // A LUT whose output is a known non-linear function at the nodes: inside a cell the
        // result mixes the four corners of the tetrahedron holding the point.
        let size = 3
        var values: [Float] = []
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            values += [Float(r * r) / 4, Float(g) / 2, Float(b * g) / 4]
        } } }
        let lut = CubeLUT(size: size, values: values)
        // At a node the value itself.
        let node = lut.tetrahedral(1, 0.5, 1)
        #expect(node == (1, 0.5, 0.5))
        // r > g > b in the cell (0…1)³ of node units: (1 − dr)·c000 + (dr − dg)·c100 + (dg − db)·c110 + db·c111.
        let (dr, dg, db): (Float, Float, Float) = (0.8, 0.5, 0.2)
        let red = (dr - dg) * 0.25 + (dg - db) * 0.25 + db * 0.25
        let blue = db * 0.25
        let point = lut.tetrahedral(dr / 2, dg / 2, db / 2)
        #expect(abs(point.0 - red) < 1e-6 && abs(point.1 - dg / 2) < 1e-6 && abs(point.2 - blue) < 1e-6)
        // Outside the lattice: clamped.
        #expect(lut.tetrahedral(-1, 2, 0.5) == lut.tetrahedral(0, 1, 0.5))
    }

    /// FuzzCubeParser's seeds and regressions (Tests/Fuzz): `valid-*` parse, the others are refused.
    @Test func replaysTheFuzzCorpus() throws {
        let files = ["corpus", "regressions"].flatMap { folder in
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fuzz/\(folder)/cube")
            return (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
        }
        #expect(files.count >= 6)
        for file in files {
            let result = Result { () throws(CubeError) in try CubeParser.parse(Array(try! Data(contentsOf: file))) }
            if file.lastPathComponent.hasPrefix("valid-") {
                #expect((try? result.get()) != nil, "\(file.lastPathComponent)")
            } else if file.path.contains("/corpus/") {
                #expect((try? result.get()) == nil, "\(file.lastPathComponent)")
            }
        }
    }
}
