/// A strict RFC 8259 JSON parser over raw bytes, for client messages.
///
/// Written for this protocol rather than taken from Foundation so that it reads straight from the
/// WebSocket buffer, tells `true` from `1`, keeps number literals (exact 64-bit integers), and
/// bounds nesting so that no input can exhaust the stack. Strings must be valid UTF-8; `\u`
/// escapes must not leave a surrogate unpaired.
struct JSONParser {
    /// Arrays and objects nested deeper than this are refused.
    static let maximumDepth = 64

    /// Why the bytes are not JSON, and where.
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        let offset: Int

        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The one JSON value `bytes` hold, with optional whitespace around it and nothing else.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.failure("unexpected \(parser.describeCurrentByte()) after the JSON value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard let byte = currentByte else { throw failure("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected \(describeCurrentByte()), expected a value")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        try parseElements(closing: UInt8(ascii: "}")) { (parser: inout JSONParser) throws(Failure) in
            guard parser.currentByte == UInt8(ascii: "\"") else { throw parser.failure("expected a string key") }
            let key = try parser.parseString()
            parser.skipWhitespace()
            try parser.expect(UInt8(ascii: ":"))
            parser.skipWhitespace()
            fields[key] = try parser.parseValue()
        }
        return .object(fields)
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        var elements: [JSONValue] = []
        try parseElements(closing: UInt8(ascii: "]")) { (parser: inout JSONParser) throws(Failure) in
            elements.append(try parser.parseValue())
        }
        return .array(elements)
    }

    /// Parses an array's or an object's elements, each with `element` (whitespace around it
    /// skipped), separated by commas, from the opening bracket (the current byte) to the
    /// `closing` one.
    private mutating func parseElements(closing: UInt8,
                                        _ element: (inout JSONParser) throws(Failure) -> Void) throws(Failure) {
        try enterContainer()
        skipWhitespace()
        if !skip(closing) {
            repeat {
                skipWhitespace()
                try element(&self)
                skipWhitespace()
            } while skip(UInt8(ascii: ","))
            try expect(closing, orElse: "expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
        depth -= 1
    }

    /// Steps over the opening bracket of an array or object, counting the nesting.
    private mutating func enterContainer() throws(Failure) {
        guard depth < Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        depth += 1
        offset += 1
    }

    // MARK: Strings

    private mutating func parseString() throws(Failure) -> String {
        let start = offset
        offset += 1
        // Unescaped runs are taken as they are; `unescaped` is only needed once an escape turns up.
        var runStart = offset
        var unescaped: [UInt8] = []
        var hasEscapes = false
        while let byte = currentByte {
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset])
                offset += 1
                if !hasEscapes { return try validated(run, start: start) }
                unescaped.append(contentsOf: run)
                return try validated(unescaped, start: start)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                unescaped.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                try parseEscape(into: &unescaped)
                runStart = offset
            case 0..<0x20:
                throw failure("control character \(describeCurrentByte()) in a string; escape it")
            default:
                offset += 1
            }
        }
        throw Failure(reason: "unterminated string", offset: start)
    }

    private func validated(_ utf8: some Sequence<UInt8>, start: Int) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw Failure(reason: "string is not valid UTF-8", offset: start)
        }
        return text
    }

    /// Reads the escape after a backslash and appends what it stands for, as UTF-8.
    private mutating func parseEscape(into output: inout [UInt8]) throws(Failure) {
        guard let byte = currentByte else { throw failure("unterminated string") }
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            output.append(simple)
            offset += 1
            return
        }
        guard byte == UInt8(ascii: "u") else { throw failure("invalid escape \\\(describeCurrentByte())") }
        let escapeStart = offset - 1
        offset += 1
        var scalarValue = UInt32(try parseHexQuad())
        if (0xD800...0xDBFF).contains(scalarValue) {
            guard skip(UInt8(ascii: "\\")), skip(UInt8(ascii: "u")) else {
                throw Failure(reason: "unpaired surrogate in \\u escape", offset: escapeStart)
            }
            let low = UInt32(try parseHexQuad())
            guard (0xDC00...0xDFFF).contains(low) else {
                throw Failure(reason: "unpaired surrogate in \\u escape", offset: escapeStart)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw Failure(reason: "unpaired surrogate in \\u escape", offset: escapeStart)
        }
        UTF8.encode(scalar) { output.append($0) }
    }

    private mutating func parseHexQuad() throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            let digit: UInt8? = switch currentByte {
            case .some(let byte) where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): byte - UInt8(ascii: "0")
            case .some(let byte) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte): byte - UInt8(ascii: "a") + 10
            case .some(let byte) where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte): byte - UInt8(ascii: "A") + 10
            default: nil
            }
            guard let digit else { throw failure("expected four hex digits after \\u") }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(Failure) -> JSONNumber {
        let start = offset
        _ = skip(UInt8(ascii: "-"))
        if !skip(UInt8(ascii: "0")) {
            guard skipDigits() > 0 else { throw failure("expected a digit") }
        }
        if skip(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-"))
            guard skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        return JSONNumber(literal: String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    /// Steps over a run of decimal digits; returns how many there were.
    private mutating func skipDigits() -> Int {
        let start = offset
        while let byte = currentByte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
        }
        return offset - start
    }

    // MARK: Bytes

    private var currentByte: UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = currentByte,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t") {
            offset += 1
        }
    }

    /// Steps over `byte` if it comes next.
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard currentByte == byte else { return false }
        offset += 1
        return true
    }

    private mutating func expect(_ byte: UInt8, orElse reason: String? = nil) throws(Failure) {
        guard skip(byte) else {
            throw failure(reason ?? "expected '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let start = offset
        let wordBytes = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - offset >= wordBytes.count,
              bytes[offset..<offset + wordBytes.count].elementsEqual(wordBytes) else {
            throw Failure(reason: "unknown literal, expected '\(word)'", offset: start)
        }
        offset += wordBytes.count
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: reason, offset: offset)
    }

    /// The current byte for an error message: `'x'` when printable ASCII, `byte 0xNN` otherwise.
    private func describeCurrentByte() -> String {
        guard let byte = currentByte else { return "end of input" }
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
