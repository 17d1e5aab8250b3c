/// A built-in 5×7 pixel font for the messages the server draws into frames (the "no signal"
/// placeholder). No C text library is involved: every glyph is drawn here, row by row.
///
/// Letters are capitals only: lower-case letters are drawn as their capitals. A character the
/// font lacks is drawn as `?` (``contains(_:)`` tells which ones those are).
public struct BitmapFont: Sendable {
    /// Glyph cell size in font pixels; characters are drawn `glyphWidth + 1` apart.
    public let glyphWidth = 5
    public let glyphHeight = 7
    /// Seven rows per glyph, top first; bit 4 of a row is its leftmost pixel.
    private let glyphs: [Character: [UInt8]]
    private let fallback: [UInt8]

    /// The font: A–Z, 0–9, space and common punctuation (including `—` and `…`).
    public static let standard = BitmapFont(art: BitmapFont.standardArt)

    /// Parses glyph art: one glyph a line, the character, then seven rows of five `#`/`.`.
    init(art: [(Character, String)]) {
        var glyphs: [Character: [UInt8]] = [:]
        for (character, rows) in art {
            let parsed = rows.split(separator: " ").map { row in
                row.reduce(UInt8(0)) { ($0 << 1) | ($1 == "#" ? 1 : 0) }
            }
            precondition(parsed.count == 7 && rows.split(separator: " ").allSatisfy { $0.count == 5 },
                         "glyph \(character) must be 7 rows of 5 pixels")
            glyphs[character] = parsed
        }
        self.glyphs = glyphs
        fallback = glyphs["?"]!
    }

    /// Whether `character` has a glyph of its own (lower-case letters use their capital's).
    public func contains(_ character: Character) -> Bool {
        glyphs[Self.folded(character)] != nil
    }

    /// The seven rows of `character`'s glyph (bit 4 leftmost), or of `?` when the font lacks it.
    public func rows(of character: Character) -> [UInt8] {
        glyphs[Self.folded(character)] ?? fallback
    }

    /// Whether font pixel (`column`, `row`) of `character`'s glyph is set.
    public func isSet(_ character: Character, column: Int, row: Int) -> Bool {
        guard (0..<glyphWidth).contains(column), (0..<glyphHeight).contains(row) else { return false }
        return rows(of: character)[row] & (1 << (glyphWidth - 1 - column)) != 0
    }

    private static func folded(_ character: Character) -> Character {
        character.isLowercase && character.isASCII ? Character(character.uppercased()) : character
    }
}
