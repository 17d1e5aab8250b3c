@testable import CastServer
@testable import CastServerLWS
import Foundation
import Testing

@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=100-199", ByteRange.part(offset: 100, count: 100)),
        ("bytes=0-0", .part(offset: 0, count: 1)),
        ("bytes=900-", .part(offset: 900, count: 100)),
        ("bytes=900-5000", .part(offset: 900, count: 100)),  // the end is clamped to the file
        ("bytes=-10", .part(offset: 990, count: 10)),
        ("bytes=-5000", .part(offset: 0, count: 1000)),       // a suffix longer than the file: all of it
        ("BYTES= 5-9 ", .part(offset: 5, count: 5)),
        ("bytes=0-99999999999999999999999", .part(offset: 0, count: 1000)),  // saturates
    ])
    func selectsOneRange(_ header: String, _ expected: ByteRange) {
        #expect(ByteRange.select(header, size: 1000) == expected, "\(header)")
    }

    @Test(arguments: ["bytes=1000-", "bytes=1000-1005", "bytes=-0", "bytes=99999999999999999999999-"])
    func refusesRangesPastTheEnd(_ header: String) {
        #expect(ByteRange.select(header, size: 1000) == .unsatisfiable, "\(header)")
    }

    @Test func anEmptyFileHasNoBytesToSelect() {
        #expect(ByteRange.select("bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange.select("bytes=-1", size: 0) == .unsatisfiable)
        #expect(ByteRange.select(nil, size: 0) == .whole)
    }

    /// No header, other units, lists (several ranges: the whole body is a valid answer) and
    /// malformed specs are all ignored.
    @Test(arguments: [
        nil, "", "bytes=", "bytes=-", "bytes=5", "bytes=9-5", "bytes=a-b", "bytes=1-2-3", "bytes=+1-2",
        "items=0-10", "bytes=0-10,20-30", "bytes=0-10, -5", "bytes 0-10", "bytes=٣-٤",
    ] as [String?])
    func ignoresWhatItDoesNotServe(_ header: String?) {
        #expect(ByteRange.select(header, size: 1000) == .whole, "\(header ?? "nil")")
    }

    @Test func httpDatesAreInTheFixedFormat() {
        #expect(FileDownload.httpDate(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(FileDownload.httpDate(1_764_583_200) == "Mon, 01 Dec 2025 10:00:00 GMT")
    }
}
