@testable import Logging
import Foundation
import Testing

/// Log lines: text for people, one JSON object per line for machines, escaped so that any
/// message or field value parses back to itself.
@Suite struct LogTests {
    static let time = Date(timeIntervalSince1970: 1_795_000_000.5)
    static let awkward = "quote \" backslash \\ newline \n tab \t bell \u{07} del \u{7F} é 🎞 </script>"

    @Test func jsonLinesParseBackToTheSameValues() throws {
        let line = Log.line(.json, .warn, Self.awkward, [
            "address": .string("127.0.0.1"), "note": .string(Self.awkward), "frames": .int(-12),
            "fps": .double(29.5), "ratio": .double(.nan), "closed": .bool(true),
        ], time: Self.time)
        #expect(!line.contains("\n"), "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-18T11:06:40.500Z")
        #expect(object["level"] as? String == "warn")
        #expect(object["message"] as? String == Self.awkward)
        #expect(object["note"] as? String == Self.awkward)
        #expect(object["address"] as? String == "127.0.0.1")
        #expect(object["frames"] as? Int == -12)
        #expect(object["fps"] as? Double == 29.5)
        #expect(object["ratio"] is NSNull, "a number JSON cannot hold becomes null")
        #expect(object["closed"] as? Bool == true)
        #expect(object.count == 9)
    }

    @Test func everyControlCharacterIsEscaped() throws {
        let all = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let line = Log.line(.json, .info, all, [:], time: Self.time)
        #expect(line.unicodeScalars.allSatisfy { $0.value >= 0x20 })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == all)
    }

    @Test func textLinesQuoteValuesThatAreNotOneWord() {
        let line = Log.line(.text, .info, "client disconnected", [
            "address": .string("10.0.0.7"), "origin": .string("evil fps=99"), "empty": .string(""),
            "fps": .double(29.9), "frames": .int(299),
        ], time: Self.time)
        #expect(line == #"filtercast: info: client disconnected address=10.0.0.7 origin="evil fps=99" empty="" fps=29.9 frames=299"#)
    }

    @Test func textMessagesStayOnOneLine() {
        let line = Log.line(.text, .warn, "decoder said:\nbad\rframe\t", [:], time: Self.time)
        #expect(line == "filtercast: warn: decoder said: bad frame ")
    }

    @Test func levelsIncludeTheMoreSevereOnes() {
        defer { Log.configure(level: .info, format: .text) }
        Log.configure(level: .warn, format: .text)
        #expect(Log.enabled(.error) && Log.enabled(.warn) && !Log.enabled(.info) && !Log.enabled(.debug))
        Log.configure(level: .debug, format: .json)
        #expect(LogLevel.allCases.allSatisfy(Log.enabled))
    }
}

/// A scope's fields come first on each of its lines, in text and in JSON.
@Suite struct LogScopeTests {
    @Test func aScopesFieldsLeadEveryLine() throws {
        let scope = LogScope(["channel": "cams"])
        let text = Log.line(.text, .info, "source opened", scope.line(["source": "door.mp4"]), time: LogTests.time)
        #expect(text == "filtercast: info: source opened channel=cams source=door.mp4")
        let json = Log.line(.json, .warn, "x", scope.line([:]), time: LogTests.time)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["channel"] as? String == "cams")
    }

    @Test func anEmptyScopeAddsNothing() {
        let line = Log.line(.text, .info, "x", LogScope().line(["a": 1]), time: LogTests.time)
        #expect(line == "filtercast: info: x a=1")
    }
}
