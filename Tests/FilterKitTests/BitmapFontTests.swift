@testable import FilterKit
import Testing

@Suite struct BitmapFontTests {
    let font = BitmapFont.standard

    /// Everything the placeholder says, and what FFmpeg's and our error messages are made of.
    static let messages = [
        "NO SIGNAL", "retrying in 10 s", "reconnecting…", "open a file or go back to the input",
        "error reading tcp://127.0.0.1:5000: the live stream ended",
        "error reading udp://127.0.0.1:5004: no frame for 5 s",
        "cannot open camera /dev/video0: Device or resource busy",
        "cannot open http://example.com/a_b?c=1&d=2: Connection refused (100%) [x] \"quoted\" 'q' — – + * # @ ; ! ~ | \\ < > ×",
    ]

    @Test(arguments: messages)
    func everyCharacterOfTheMessagesIsInTheFont(_ message: String) {
        let missing = message.filter { !font.contains($0) }
        #expect(missing.isEmpty, "no glyph for \(Array(missing)) in '\(message)'")
    }

    @Test func everyLetterAndDigitHasADistinctGlyph() {
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let glyphs = Set(characters.map { font.rows(of: $0) })
        #expect(glyphs.count == characters.count)
        // Nothing but the space is blank, and every glyph fits five columns.
        for character in characters {
            #expect(font.rows(of: character).contains { $0 != 0 }, "\(character) is blank")
            #expect(font.rows(of: character).allSatisfy { $0 < 32 })
        }
        #expect(font.rows(of: " ").allSatisfy { $0 == 0 })
    }

    @Test func lowerCaseIsDrawnAsCapitalsAndUnknownCharactersAsAQuestionMark() {
        #expect(font.rows(of: "g") == font.rows(of: "G"))
        #expect(font.contains("g"))
        #expect(!font.contains("é") && !font.contains("日"))
        #expect(font.rows(of: "日") == font.rows(of: "?"))
    }

    @Test func pixelsFollowTheGlyphArt() {
        // "T": a full top bar, then the middle column only.
        #expect((0..<5).allSatisfy { font.isSet("T", column: $0, row: 0) })
        for row in 1..<7 {
            #expect((0..<5).map { font.isSet("T", column: $0, row: row) } == [false, false, true, false, false])
        }
        // "L": the left column and the bottom bar.
        #expect((0..<7).allSatisfy { font.isSet("L", column: 0, row: $0) })
        #expect((0..<5).allSatisfy { font.isSet("L", column: $0, row: 6) })
        #expect(!font.isSet("L", column: 4, row: 0))
        #expect(!font.isSet("L", column: 5, row: 0) && !font.isSet("L", column: 0, row: 7))
    }
}
