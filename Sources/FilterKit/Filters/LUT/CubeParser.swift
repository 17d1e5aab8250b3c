/// Why a `.cube` file was refused: the line (from 1; 0 for the file as a whole) and the reason.
public struct CubeError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    /// "line N: reason", or the reason alone for the file as a whole.
    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// Reads an Adobe Cube file (`.cube`, the format of the *Cube LUT Specification 1.0*) into a
/// ``CubeLUT``. The file is untrusted input (an upload): every line is checked, and the first
/// problem refuses the whole file with its line number and reason.
///
/// Taken: blank lines; comments (`#` first on a line); `TITLE "…"`; `LUT_3D_SIZE N` (N in
/// ``sizes``); `DOMAIN_MIN r g b` and `DOMAIN_MAX r g b` (each min below its max);
/// `LUT_3D_INPUT_RANGE min max` (DaVinci Resolve's spelling of one domain for all three
/// channels) — each keyword at most once and before the table —, then exactly N³ lines of three
/// decimal numbers, red changing fastest, each within the domain. Refused: a 1D LUT
/// (`LUT_1D_SIZE`), an unknown keyword, a line of the table before the size, a wrong number of
/// values on a line or of lines, a value that is not a finite decimal number, a value outside the
/// domain, and a file over ``maximumBytes`` or a line over ``maximumLineBytes``. Line ends may be
/// LF, CRLF or CR. Pure and allocation-bounded by the input's size.
public enum CubeParser {
    /// The lattice sizes taken (the specification's range).
    public static let sizes = 2...65
    /// The largest file taken: a 65³ LUT written with generous precision fits.
    public static let maximumBytes = 16 << 20
    /// The longest line taken (a title, or three numbers with many digits).
    public static let maximumLineBytes = 1024

    public static func parse(_ bytes: [UInt8]) throws(CubeError) -> CubeLUT {
        guard bytes.count <= maximumBytes else {
            throw CubeError(line: 0, reason: "the file is too big: \(bytes.count) bytes, at most \(maximumBytes)")
        }
        var state = ParseState()
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 && bytes[end] != 13 { end += 1 }
            lineNumber += 1
            guard end - start <= maximumLineBytes else {
                throw CubeError(line: lineNumber, reason: "the line is longer than \(maximumLineBytes) bytes")
            }
            try state.take(bytes[start..<end], line: lineNumber)
            // CRLF is one line end.
            start = end < bytes.count && bytes[end] == 13 && end + 1 < bytes.count && bytes[end + 1] == 10 ? end + 2 : end + 1
        }
        return try state.finish(lines: lineNumber)
    }
}

/// What the lines read so far said.
private struct ParseState {
    var size: Int?
    var title: String?
    var domainMin: [Float]?
    var domainMax: [Float]?
    var values: [Float] = []
    /// The line of the first table entry (keywords must come before it).
    var tableLine: Int?
    /// The line that last set the domain.
    var domainLine = 0

    mutating func take(_ line: ArraySlice<UInt8>, line number: Int) throws(CubeError) {
        let words = Words(line)
        guard let first = words.first else { return }
        if first.first == UInt8(ascii: "#") { return }
        if let byte = line.first(where: { $0 < 0x20 && $0 != 9 || $0 == 0x7F }) {
            throw CubeError(line: number, reason: notText(byte))
        }
        if isNumberStart(first.first!) {
            try takeEntry(words, line: number)
            return
        }
        guard tableLine == nil else {
            throw CubeError(line: number, reason: "'\(shown(first))' after the table: keywords come before it")
        }
        try takeKeyword(text(first), words, line: number)
    }

    private mutating func takeKeyword(_ keyword: String, _ words: Words, line: Int) throws(CubeError) {
        func once<T>(_ value: T?) throws(CubeError) {
            if value != nil { throw CubeError(line: line, reason: "\(keyword) is given twice") }
        }
        switch keyword {
        case "TITLE":
            try once(title)
            title = try quoted(words.rest, line: line)
        case "LUT_3D_SIZE":
            try once(size)
            let numbers = words.arguments
            guard numbers.count == 1, let value = Int(text(numbers[0])) else {
                throw CubeError(line: line, reason: "LUT_3D_SIZE takes one whole number")
            }
            guard CubeParser.sizes.contains(value) else {
                throw CubeError(line: line, reason: "LUT_3D_SIZE \(value) is out of range: \(CubeParser.sizes.lowerBound) to \(CubeParser.sizes.upperBound)")
            }
            size = value
            values.reserveCapacity(value * value * value * 3)
        case "DOMAIN_MIN":
            try once(domainMin)
            domainMin = try numbers(words.arguments, count: 3, line: line, what: keyword)
        case "DOMAIN_MAX":
            try once(domainMax)
            domainMax = try numbers(words.arguments, count: 3, line: line, what: keyword)
        case "LUT_3D_INPUT_RANGE":
            try once(domainMin)
            try once(domainMax)
            let range = try numbers(words.arguments, count: 2, line: line, what: keyword)
            domainMin = Array(repeating: range[0], count: 3)
            domainMax = Array(repeating: range[1], count: 3)
        case "LUT_1D_SIZE", "LUT_1D_INPUT_RANGE":
            throw CubeError(line: line, reason: "\(keyword): a 1D LUT; only 3D LUTs (LUT_3D_SIZE) are taken")
        default:
            throw CubeError(line: line, reason: "unknown keyword '\(shown(words.first!))'")
        }
        if keyword.hasPrefix("DOMAIN") || keyword == "LUT_3D_INPUT_RANGE" { domainLine = line }
    }

    /// The domain (0…1 where not given), checked: each minimum below its maximum.
    private func domain() throws(CubeError) -> (low: [Float], high: [Float]) {
        let low = domainMin ?? [0, 0, 0], high = domainMax ?? [1, 1, 1]
        if let channel = (0..<3).first(where: { !(low[$0] < high[$0]) }) {
            throw CubeError(line: domainLine, reason: "the domain's minimum \(low[channel]) is not below its maximum \(high[channel])")
        }
        return (low, high)
    }

    private mutating func takeEntry(_ words: Words, line: Int) throws(CubeError) {
        guard let size else { throw CubeError(line: line, reason: "a table entry before LUT_3D_SIZE") }
        if tableLine == nil { tableLine = line }
        let expected = size * size * size
        guard values.count / 3 < expected else {
            throw CubeError(line: line, reason: "more entries than LUT_3D_SIZE \(size) gives (\(expected))")
        }
        let entry = try numbers(words.values, count: 3, line: line, what: "a table entry")
        let (low, high) = try domain()
        for channel in 0..<3 where !(low[channel]...high[channel]).contains(entry[channel]) {
            throw CubeError(line: line, reason: "\(entry[channel]) is outside the domain \(low[channel]) to \(high[channel])")
        }
        values += entry
    }

    func finish(lines: Int) throws(CubeError) -> CubeLUT {
        guard let size else { throw CubeError(line: 0, reason: "no LUT_3D_SIZE: not a 3D LUT") }
        let expected = size * size * size
        _ = try domain()
        guard values.count == expected * 3 else {
            throw CubeError(line: lines, reason: "\(values.count / 3) entries where LUT_3D_SIZE \(size) needs \(expected)")
        }
        return CubeLUT(size: size, title: title ?? "", domainMin: domainMin ?? [0, 0, 0],
                       domainMax: domainMax ?? [1, 1, 1], values: values)
    }

    /// `count` finite decimal numbers (digits, one point, a sign, an exponent: no `nan`, `inf`
    /// or hexadecimal), or the error naming the line.
    private func numbers(_ words: [ArraySlice<UInt8>], count: Int, line: Int, what: String) throws(CubeError) -> [Float] {
        guard words.count == count else {
            throw CubeError(line: line, reason: "\(what) takes \(count) numbers, not \(words.count)")
        }
        var result: [Float] = []
        result.reserveCapacity(count)
        for word in words {
            guard word.allSatisfy(isNumberCharacter), let value = Float(text(word)), value.isFinite else {
                throw CubeError(line: line, reason: "'\(shown(word))' is not a number")
            }
            result.append(value)
        }
        return result
    }

    /// A title: the text between double quotes (or the rest of the line, unquoted).
    private func quoted(_ rest: ArraySlice<UInt8>, line: Int) throws(CubeError) -> String {
        guard rest.first == UInt8(ascii: "\"") else { return text(rest) }
        let inside = rest.dropFirst()
        guard let close = inside.firstIndex(of: UInt8(ascii: "\"")), close == inside.endIndex - 1 else {
            throw CubeError(line: line, reason: "TITLE's closing quote is missing or not last")
        }
        return text(inside[..<close])
    }

    private func isNumberStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".")
    }

    private func isNumberCharacter(_ byte: UInt8) -> Bool {
        isNumberStart(byte) || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Up to 40 of `bytes` as a message may quote them: printable ASCII kept, anything else `\xNN`
    /// (an error goes back in an HTTP body and into the log: never raw bytes of an upload).
    private func shown(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.prefix(40).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }
            .joined()
    }

    /// Why a line with control byte `byte` is refused: a file cut short inside the table (a crash
    /// or a full disk leaves zeros) says how far the table got.
    private func notText(_ byte: UInt8) -> String {
        let found = "byte 0x\(String(byte, radix: 16, uppercase: true)) is not text"
        guard let size, tableLine != nil else { return "\(found): not a .cube file" }
        return "\(found): the table stops after \(values.count / 3) of \(size * size * size) entries (the file is cut short or damaged)"
    }
}

/// A line's words, split at spaces and tabs.
private struct Words {
    let line: ArraySlice<UInt8>
    let values: [ArraySlice<UInt8>]

    init(_ line: ArraySlice<UInt8>) {
        self.line = line
        values = line.split(whereSeparator: { $0 == 32 || $0 == 9 })
    }

    var first: ArraySlice<UInt8>? { values.first }
    /// The words after the first (a keyword's arguments).
    var arguments: [ArraySlice<UInt8>] { Array(values.dropFirst()) }

    /// The line after its first word, trimmed.
    var rest: ArraySlice<UInt8> {
        guard let first = values.first else { return [] }
        var rest = line[first.endIndex...]
        while let byte = rest.first, byte == 32 || byte == 9 { rest = rest.dropFirst() }
        while let byte = rest.last, byte == 32 || byte == 9 { rest = rest.dropLast() }
        return rest
    }
}
