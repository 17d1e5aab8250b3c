@testable import FilterKit
import Testing

@Suite struct PlaceholderRendererTests {
    let renderer = PlaceholderRenderer()
    let details = ["error reading tcp://127.0.0.1:5000: the live stream ended", "retrying in 2 s"]

    /// Every font pixel of every line is ink where the glyph is set and background where it is
    /// not (sampled at the centre of each block, and at each block's corners).
    @Test(arguments: [(1280, 720), (640, 480), (320, 240), (1920, 1080)])
    func glyphPixelsAppearWhereExpected(width: Int, height: Int) {
        let frame = Frame(width: width, height: height)
        renderer.render(title: "NO SIGNAL", details: details, into: frame)
        let lines = renderer.layout(title: "NO SIGNAL", details: details, width: width, height: height)
        #expect(lines.count >= 3)
        #expect(lines.map(\.text).joined(separator: " ").hasSuffix("ended retrying in 2 s"))
        var inkSamples = 0
        for line in lines {
            for (index, character) in line.text.enumerated() {
                let left = line.x + index * 6 * line.scale
                for row in 0..<7 {
                    for column in 0..<5 {
                        let x = left + column * line.scale, y = line.y + row * line.scale
                        let expected = renderer.font.isSet(character, column: column, row: row)
                            ? PlaceholderRenderer.ink : PlaceholderRenderer.background
                        for (dx, dy) in [(line.scale / 2, line.scale / 2), (0, 0), (line.scale - 1, line.scale - 1)] {
                            #expect(frame.y.row(y + dy)[x + dx] == expected,
                                    "'\(character)' of '\(line.text)' at font pixel (\(column), \(row))")
                        }
                        if expected == PlaceholderRenderer.ink { inkSamples += 1 }
                    }
                }
            }
        }
        #expect(inkSamples > 100)
        // Chroma is neutral: the placeholder is grey and white.
        #expect(frame.u.row(0)[0] == 128 && frame.v.row(frame.v.height - 1)[frame.v.width - 1] == 128)
    }

    @Test func theTitleIsLargerAndEverythingIsCentredInsideTheFrame() {
        let lines = renderer.layout(title: "NO SIGNAL", details: details, width: 1280, height: 720)
        let title = lines[0]
        #expect(title.text == "NO SIGNAL")
        #expect(lines.dropFirst().allSatisfy { $0.scale < title.scale && $0.y > title.y })
        for line in lines {
            let width = line.text.count * 6 * line.scale - line.scale
            #expect(line.x >= 0 && line.x + width <= 1280, "'\(line.text)' leaves the frame")
            #expect(abs((1280 - width) / 2 - line.x) <= 1, "'\(line.text)' is not centred")
            #expect(line.y >= 0 && line.y + 7 * line.scale <= 720)
        }
    }

    @Test func longLinesWrapAtSpacesAndOverlongWordsLoseTheirMiddle() {
        #expect(PlaceholderRenderer.wrap("one two three four", limit: 9) == ["one two", "three", "four"])
        #expect(PlaceholderRenderer.wrap("abcdefghij k", limit: 4) == ["ab…j", "k"])
        #expect(PlaceholderRenderer.wrap("abcdefghij k", limit: 5) == ["ab…ij", "k"])
        #expect(PlaceholderRenderer.wrap("", limit: 4) == [""])
        // A long reason at 320 pixels wide is wrapped, not clipped.
        let lines = renderer.layout(title: "NO SIGNAL", details: [String(repeating: "word ", count: 40)],
                                    width: 320, height: 240)
        #expect(lines.count > 3)
        #expect(lines.allSatisfy { $0.x >= 0 && $0.x + $0.text.count * 6 * $0.scale <= 320 + $0.scale })
    }

    /// A source URL breaks after a `/`, never inside a name; a part with no `/` to break at
    /// loses its middle.
    @Test func aURLBreaksAtSlashesOrLosesItsMiddle() {
        let reason = "cannot open rtsp://cameras.example.com/live/front-door/stream1: Connection refused"
        #expect(PlaceholderRenderer.wrap(reason, limit: 20) == [
            "cannot open", "rtsp://", "cameras.example.com/", "live/front-door/", "stream1: Connection",
            "refused",
        ])
        #expect(PlaceholderRenderer.wrap("udp://127.0.0.1:5000?overrun_nonfatal=1&fifo_size=50000", limit: 20)
            == ["udp://", "127.0.0.1:…ize=50000"])
        #expect(PlaceholderRenderer.wrap("/a-very-long-name-without-slashes", limit: 10) == ["/a-ve…shes"])
        for limit in 2...30 {
            let lines = PlaceholderRenderer.wrap(reason, limit: limit)
            #expect(lines.allSatisfy { $0.count <= limit }, "\(limit): \(lines)")
        }
    }

    @Test(arguments: [(16, 16), (17, 11), (2, 2)])
    func tinyFramesDrawWhatFitsWithoutTrapping(width: Int, height: Int) {
        let frame = Frame(width: width, height: height)
        renderer.render(title: "NO SIGNAL", details: details, into: frame)
        let lines = renderer.layout(title: "NO SIGNAL", details: details, width: width, height: height)
        #expect(lines.count == 1)
    }
}
