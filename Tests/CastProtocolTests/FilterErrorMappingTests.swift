import CastProtocol
import FilterKit
import Testing

@Suite("FilterError to ProtocolError")
struct FilterErrorMappingTests {
    static func filterError(_ name: String, _ parameters: [String: ParameterValue]) -> FilterError? {
        do {
            _ = try FilterSettings(name: name, parameters: parameters)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownFilterIsUnknownFilter() throws {
        let error = try #require(Self.filterError("kaleidoscopeOfDoom", [:]))
        let mapped = ProtocolError(error, id: .string("f"))
        #expect(mapped == ProtocolError(code: .unknownFilter, message: error.description, id: .string("f")))
        #expect(mapped.message.contains("kaleidoscopeOfDoom"))
    }

    @Test func unknownParameterIsInvalidArgument() throws {
        let error = try #require(Self.filterError("sepia", ["radius": 3]))
        let mapped = ProtocolError(error, id: nil)
        #expect(mapped == ProtocolError(code: .invalidArgument, message: error.description, id: nil))
        #expect(mapped.message.contains("radius"))
    }

    @Test(arguments: [5, -1, .infinity, .nan] as [Double])
    func invalidValueIsOutOfRange(_ value: Double) throws {
        let error = try #require(Self.filterError("sepia", ["intensity": .number(value)]))
        let mapped = ProtocolError(error, id: .number(3))
        #expect(mapped.code == .outOfRange)
        #expect(mapped.id == .number(3))
        #expect(mapped.message == error.description)
        #expect(mapped.message.contains("sepia.intensity") && mapped.message.contains("0…1"))
    }

    /// A chain's errors: the link's own code (its message names the link), a chain too long
    /// `out_of_range`, `none` among other links `invalid_argument`.
    @Test func chainErrorsKeepTheLinksCode() throws {
        func chainError(_ requests: [(name: String, parameters: [String: ParameterValue])]) -> FilterError? {
            do {
                _ = try FilterChain(validating: requests.map { ($0.name, $0.parameters, .all) })
                return nil
            } catch {
                return error
            }
        }
        let cases: [([(name: String, parameters: [String: ParameterValue])], ErrorCode, [String])] = [
            ([("invert", [:]), ("nope", [:])], .unknownFilter, ["link 1", "nope"]),
            ([("invert", [:]), ("sepia", ["radius": 1])], .invalidArgument, ["link 1", "radius"]),
            ([("sepia", ["intensity": 3]), ("invert", [:])], .outOfRange, ["link 0", "sepia.intensity", "0…1"]),
            (Array(repeating: ("invert", [:]), count: 9), .outOfRange, ["at most 8", "got 9"]),
            ([("invert", [:]), ("none", [:])], .invalidArgument, ["'none'", "link 1"]),
        ]
        let region = try #require(#expect(throws: FilterError.self) {
            try FilterChain(validating: [("invert", [:], .all), ("sepia", [:], .background)])
        })
        #expect(ProtocolError(region).code == .outOfRange)
        #expect(region.description.contains("link 1") && region.description.contains("person matte"), "\(region)")
        for (requests, code, words) in cases {
            let error = try #require(chainError(requests))
            let mapped = ProtocolError(error, id: .number(1))
            #expect(mapped.code == code, "\(error)")
            #expect(mapped.message == error.description)
            for word in words { #expect(mapped.message.contains(word), "\(mapped.message) should mention \(word)") }
        }
    }

    /// A choice's id for a numeric parameter is the wrong type; a choice a parameter of the choice
    /// kind does not have is out of range, and the message names the choices.
    @Test func choiceErrorsMap() throws {
        let wrongType = try #require(Self.filterError("sepia", ["intensity": "strong"]))
        #expect(ProtocolError(wrongType, id: nil).code == .invalidArgument)
        #expect(wrongType.description.contains("sepia.intensity must be a number"))
        let unknown = FilterError.unknownChoice(filter: "style", parameter: "style", value: "wave", known: ["a", "b"])
        #expect(ProtocolError(unknown, id: nil).code == .outOfRange)
        #expect(ProtocolError(.inChain(index: 1, unknown), id: nil).code == .outOfRange)
        #expect(unknown.description == "style.style must be one of 'a', 'b' (or its index 0…1), got 'wave'")
    }

    /// What a session does with a parsed `setFilter`: the parser passes any numbers through and
    /// the catalog decides.
    @Test func parsedParametersAreCheckedByTheCatalog() throws {
        let message = try ClientMessageParser.parse(#"{"type":"setFilter","name":"pixellate","params":{"scale":1e999},"id":"p"}"#)
        guard case .session(.setFilter(let name, let params, _)) = message.command else {
            Issue.record("expected setFilter, got \(message.command)")
            return
        }
        let error = try #require(Self.filterError(name, params))
        #expect(ProtocolError(error, id: message.id).code == .outOfRange)
        #expect(ProtocolError(error, id: message.id).id == .string("p"))
    }
}
