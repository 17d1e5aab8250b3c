import CastServer
import Foundation

/// What a `Range:` request header asks of a body of a known size (RFC 9110 §14): the part of a
/// file a download answers with.
///
/// Contract: only a single `bytes=` range is honoured — `FIRST-LAST`, `FIRST-` and the suffix
/// form `-COUNT`. No header, a header that does not parse, another unit and a list of several
/// ranges all mean the whole body (200): RFC 9110 lets a server ignore `Range`, and a multipart
/// answer is not worth its cost here. A single range that starts at or past the end (or a
/// suffix of zero bytes) is unsatisfiable (416).
enum ByteRange: Equatable {
    /// The whole body, `200`.
    case whole
    /// Bytes `offset ..< offset + count` of the body, `206`; `count` is at least 1.
    case part(offset: UInt64, count: UInt64)
    /// No byte of the body is in the range, `416`.
    case unsatisfiable

    /// What `header` (the `Range:` value, nil when absent) selects of a body of `size` bytes.
    static func select(_ header: String?, size: UInt64) -> ByteRange {
        guard let header, let spec = rangeSpec(header) else { return .whole }
        let dash = spec.firstIndex(of: "-")!  // rangeSpec returns specs with exactly one
        let firstText = spec[..<dash], lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let count = min(suffix, size)
            return .part(offset: size - count, count: count)
        }
        guard let first = number(firstText) else { return .whole }
        let last: UInt64
        if lastText.isEmpty {
            last = UInt64.max
        } else {
            guard let parsed = number(lastText), parsed >= first else { return .whole }  // invalid: ignored
            last = parsed
        }
        guard first < size else { return .unsatisfiable }
        return .part(offset: first, count: min(last, size - 1) - first + 1)
    }

    /// The one range of `bytes=SPEC` (spaces around it allowed), or nil for another unit, a list
    /// or a spec without its dash.
    private static func rangeSpec(_ header: String) -> Substring? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = Substring(trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces))
        guard !spec.contains(","), spec.filter({ $0 == "-" }).count == 1 else { return nil }
        return spec
    }

    /// Decimal digits as a number; saturates at `UInt64.max` (a position past any file), nil
    /// for anything but digits.
    private static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var value: UInt64 = 0
        for digit in text.utf8 {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit - 48))
            if overflowA || overflowB { return UInt64.max }
            value = sum
        }
        return value
    }
}
