/// Draws the picture shown in place of a live source that has failed: a dark frame with a large
/// title ("NO SIGNAL") and smaller lines below it (the reason, the retry countdown), centred,
/// in ``BitmapFont`` at whole-pixel scales so that the text stays sharp after JPEG.
///
/// Not a hot path: it runs about once a second while a source is offline.
public struct PlaceholderRenderer: Sendable {
    /// One line of text placed on the frame: its top-left corner and its scale (frame pixels
    /// per font pixel).
    public struct Line: Equatable, Sendable {
        public let text: String
        public let x: Int
        public let y: Int
        public let scale: Int
    }

    public let font: BitmapFont
    /// Luma of the background and of the text (full range; chroma stays neutral grey).
    public static let background: UInt8 = 24
    public static let ink: UInt8 = 235

    public init(font: BitmapFont = .standard) {
        self.font = font
    }

    /// Where the lines go on a `width × height` frame: the title at up to a sixth of the height,
    /// the details at half its scale or less, wrapped at spaces to fit the width, the whole block
    /// centred. Lines that do not fit the height are left out.
    public func layout(title: String, details: [String], width: Int, height: Int) -> [Line] {
        let margin = width / 20
        let usable = max(1, width - 2 * margin)
        let advance = font.glyphWidth + 1
        let titleScale = max(1, min(usable / max(1, title.count * advance), height / (font.glyphHeight * 6)))
        let detailScale = max(1, min(titleScale / 2, height / (font.glyphHeight * 16)))
        let perLine = max(1, usable / (advance * detailScale))
        var lines = [(title, titleScale)]
        for detail in details {
            lines += Self.wrap(detail, limit: perLine).map { ($0, detailScale) }
        }
        // Each line is followed by three font pixels of space (of its own scale).
        let lineHeights = lines.map { ($0.1 * (font.glyphHeight + 3)) }
        var kept = lines.count
        while kept > 1 && lineHeights.prefix(kept).reduce(0, +) > height { kept -= 1 }
        var y = max(0, (height - lineHeights.prefix(kept).reduce(0, +)) / 2)
        var placed: [Line] = []
        for (index, (text, scale)) in lines.prefix(kept).enumerated() {
            let textWidth = text.count * advance * scale - scale
            placed.append(Line(text: text, x: max(0, (width - textWidth) / 2), y: y, scale: scale))
            y += lineHeights[index]
        }
        return placed
    }

    /// Fills `frame` with the background and draws the lines of ``layout(title:details:width:height:)``.
    public func render(title: String, details: [String], into frame: Frame) {
        frame.y.fill(Self.background)
        frame.u.fill(128)
        frame.v.fill(128)
        for line in layout(title: title, details: details, width: frame.width, height: frame.height) {
            draw(line, on: frame.y)
        }
    }

    private func draw(_ line: Line, on plane: Plane) {
        let advance = (font.glyphWidth + 1) * line.scale
        for (index, character) in line.text.enumerated() {
            let rows = font.rows(of: character)
            let left = line.x + index * advance
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<font.glyphWidth where bits & (1 << (font.glyphWidth - 1 - column)) != 0 {
                    fill(plane, x: left + column * line.scale, y: line.y + row * line.scale, size: line.scale)
                }
            }
        }
    }

    /// Paints a `size × size` block of ink, clipped to the plane.
    private func fill(_ plane: Plane, x: Int, y: Int, size: Int) {
        let x0 = max(0, x), x1 = min(plane.width, x + size)
        let y0 = max(0, y), y1 = min(plane.height, y + size)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            (plane.row(row) + x0).update(repeating: Self.ink, count: x1 - x0)
        }
    }

    /// Splits `text` at spaces into lines of at most `limit` characters. A longer word (a URL)
    /// breaks after a `/` — never inside a name — and what is still too long with no `/` to
    /// break at loses its middle to an ellipsis (``elided(_:limit:)``).
    static func wrap(_ text: String, limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > limit {
                if !current.isEmpty { lines.append(current); current = "" }
                guard let slash = word.prefix(limit).dropFirst().lastIndex(of: "/") else {
                    word = Substring(elided(word, limit: limit))
                    break
                }
                lines.append(String(word[...slash]))
                word = word[word.index(after: slash)...]
            }
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= limit {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `word` in `limit` characters: its start and its end around a `…` (the start gets the odd one).
    static func elided(_ word: Substring, limit: Int) -> String {
        guard word.count > limit else { return String(word) }
        guard limit > 1 else { return String(word.prefix(limit)) }
        let tail = (limit - 1) / 2
        return word.prefix(limit - 1 - tail) + "…" + word.suffix(tail)
    }
}
