import CastProtocol
import FilterKit
import Testing

@Suite("FilterError to ProtocolError")
struct FilterErrorMappingTests {
    static func filterError(_ name: String, _ parameters: [String: Double]) -> FilterError? {
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
        let error = try #require(Self.filterError("sepia", ["intensity": value]))
        let mapped = ProtocolError(error, id: .number(3))
        #expect(mapped.code == .outOfRange)
        #expect(mapped.id == .number(3))
        #expect(mapped.message == error.description)
        #expect(mapped.message.contains("sepia.intensity") && mapped.message.contains("0…1"))
    }

    /// What a session does with a parsed `setFilter`: the parser passes any numbers through and
    /// the catalog decides.
    @Test func parsedParametersAreCheckedByTheCatalog() throws {
        let message = try ClientMessageParser.parse(#"{"type":"setFilter","name":"pixellate","params":{"scale":1e999},"id":"p"}"#)
        guard case .setFilter(let name, let params) = message.command else {
            Issue.record("expected setFilter, got \(message.command)")
            return
        }
        let error = try #require(Self.filterError(name, params))
        #expect(ProtocolError(error, id: message.id).code == .outOfRange)
        #expect(ProtocolError(error, id: message.id).id == .string("p"))
    }
}
