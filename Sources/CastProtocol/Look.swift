import FilterKit
import Foundation

/// A saved look: a filter chain under a name, kept as one JSON file per look (`NAME.json` in
/// `--looks`), readable and writable by hand:
///
/// ```
/// {"name": "warm", "created": "2026-12-03T11:50:00Z",
///  "chain": [{"name": "sepia", "params": {"amount": 0.8}, "region": "background"}, {"name": "vignette"}]}
/// ```
///
/// `chain` is exactly what `setFilter.chain` takes (1…``FilterChain/maximumLength`` links, each
/// `{name, params, region}`, a choice parameter by its id, `region` left out for `all`);
/// `[{"name": "none"}]` is the look of no filter.
/// The links are not checked against a catalog here: a look is checked when it is applied (a LUT
/// it names may have gone since).
public struct Look: Sendable, Equatable {
    /// The name rule of looks: the LUTs' (``LUTLibrary/isValidName(_:)``, 1–32 of `a-z 0-9 _ -`).
    public static func isValidName(_ name: String) -> Bool { LUTLibrary.isValidName(name) }

    public let name: String
    /// When it was saved, ISO 8601 UTC as written; nil for a file written by hand without one.
    public let created: String?
    public let chain: [FilterLinkRequest]

    public init(name: String, created: String?, chain: [FilterLinkRequest]) {
        self.name = name
        self.created = created
        self.chain = chain
    }

    /// A look of `chain` as the session holds it (validated settings), named and dated now.
    public init(name: String, chain: FilterChain, created: Date = Date()) {
        let links = chain.links.isEmpty ? [FilterSettings.none] : chain.links
        self.init(name: name, created: ISO8601DateFormatter().string(from: created),
                  chain: links.map { FilterLinkRequest(name: $0.name, params: $0.name == "none" ? [:] : $0.parameters,
                                                       region: $0.region) })
    }

    /// The file's bytes: pretty-printed JSON with sorted keys, a newline at the end.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else {
            preconditionFailure("a look's chain is not encodable (a parameter that is not finite): \(chain)")
        }
        return Array(data) + [UInt8(ascii: "\n")]
    }
}

/// A look encodes as its file has it: `{"name", "created", "chain": [{"name", "params", "region"}]}`
/// (`created` null when unknown, `params` left out when empty, a choice by its id, `region` left
/// out for `all`).
extension Look: Encodable {
    private enum CodingKeys: String, CodingKey { case name, created, chain, params, region }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(created, forKey: .created)
        var links = container.nestedUnkeyedContainer(forKey: .chain)
        for link in chain {
            var object = links.nestedContainer(keyedBy: CodingKeys.self)
            try object.encode(link.name, forKey: .name)
            if link.region != .all { try object.encode(link.region.rawValue, forKey: .region) }
            guard !link.params.isEmpty else { continue }
            try object.encode(link.params.mapValues(EncodedValue.init), forKey: .params)
        }
    }

    /// A parameter's value as a client sends it: a number, or a choice's id.
    private struct EncodedValue: Encodable {
        let value: ParameterValue
        init(_ value: ParameterValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .number(let number): try container.encode(number)
            case .choice(let id): try container.encode(id)
            }
        }
    }
}

/// Why bytes are not a look file; the reader names the file in front of it.
public struct LookError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// Reads a look file (untrusted: written by hand, or uploaded by the page's import). Pure: bytes
/// in, a ``Look`` or a ``LookError`` saying what is wrong, never anything else (fuzzed:
/// FuzzLookParser).
public enum LookParser {
    /// The largest look file read.
    public static let maximumBytes = 64 * 1024

    /// The look in `bytes`. `expectedName`: the name its file gives it (`NAME.json`), which its
    /// `name` must equal; nil takes the `name` inside.
    public static func parse(_ bytes: [UInt8], expectedName: String? = nil) throws(LookError) -> Look {
        guard bytes.count <= maximumBytes else {
            throw LookError(reason: "a look file is at most \(maximumBytes) bytes, this one has \(bytes.count)")
        }
        let root: JSONValue
        do {
            root = try bytes.withUnsafeBytes { buffer throws(JSONParser.Failure) in try JSONParser.parse(buffer) }
        } catch {
            throw LookError(reason: "not JSON: \(error)")
        }
        guard case .object(let fields) = root else {
            throw LookError(reason: "a look is a JSON object {\"name\", \"created\", \"chain\"}, got \(root.summary)")
        }
        let look = CommandFields(type: "look", fields: fields)
        do throws(ProtocolError) {
            let name = try look.string("name")
            guard Look.isValidName(name) else {
                throw ProtocolError(code: .outOfRange, message: "look.name must be 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -, got \(JSONValue.string(name).summary)")
            }
            if let expectedName, name != expectedName {
                throw ProtocolError(code: .invalidArgument, message: "look.name is \"\(name)\" but the file is named for \"\(expectedName)\"")
            }
            let chain = try look.chain("chain")
            for (index, link) in chain.enumerated() {
                for (key, value) in link.params.sorted(by: { $0.key < $1.key }) {
                    if case .number(let number) = value, !number.isFinite {
                        throw ProtocolError(code: .outOfRange, message: "look.chain[\(index)].params.\(key) must be a finite number")
                    }
                }
            }
            let created = fields["created"] == .null ? nil : try look.optionalString("created")
            return Look(name: name, created: created, chain: chain)
        } catch {
            throw LookError(reason: error.message)
        }
    }
}

/// A look as lists show it: `{"name", "created"}` (`created` null for a file written by hand
/// without one); `GET /api/looks` adds the `chain`.
public struct LookEntry: Sendable, Equatable, Encodable {
    public let name: String
    public let created: String?

    public init(_ look: Look) {
        name = look.name
        created = look.created
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(created, forKey: .created)
    }

    private enum CodingKeys: String, CodingKey { case name, created }
}
