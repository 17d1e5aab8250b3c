import FilterKit
import Foundation
import Testing

/// A filter with a parameter of the choice kind, as `style` and `lut` have: the catalog's checks
/// and wire form of choices, without a network.
private final class PickFilter: StandaloneFilter {
    static let descriptor = FilterDescriptor(
        name: "pick", label: "Pick", category: .stylize,
        params: [
            .choice(name: "look", label: "Look", choices: ["warm", "cold", "dark"].map {
                ParameterDescriptor.Choice(id: $0, label: $0.capitalized, thumbnail: "/t/\($0).jpg")
            }, default: "cold"),
            ParameterDescriptor(name: "amount", label: "Amount", default: 1, min: 0, max: 1, step: 0.01),
        ])
    init(settings: FilterSettings) {}
    func apply(to frame: Frame) {}
}

@Suite struct ChoiceParameterTests {
    let catalog = FilterCatalog([.init(NoFilter.self), .init(PickFilter.self)])

    @Test func aChoiceIsTakenByIdOrIndexAndDefaults() throws {
        let byID = try FilterSettings(name: "pick", parameters: ["look": "dark", "amount": 0.5], catalog: catalog)
        #expect(byID.choice("look") == "dark" && byID["look"] == 2 && byID["amount"] == 0.5)
        #expect(byID.parameters == ["look": "dark", "amount": 0.5])
        let byIndex = try FilterSettings(name: "pick", parameters: ["look": 0.4], catalog: catalog)
        #expect(byIndex.choice("look") == "warm")
        #expect(try FilterSettings(name: "pick", parameters: [String: Double](), catalog: catalog).choice("look") == "cold")
        #expect(byID.description == "pick(amount=0.5, look='dark')")
    }

    @Test func unknownChoicesAndWrongTypesAreRefused() {
        for value: ParameterValue in ["hot", "", 3, -1, .number(.infinity)] {
            #expect(throws: FilterError.unknownChoice(filter: "pick", parameter: "look", value: value,
                                                      known: ["warm", "cold", "dark"])) {
                try FilterSettings(name: "pick", parameters: ["look": value], catalog: catalog)
            }
        }
        #expect(throws: FilterError.self) { try FilterSettings(name: "pick", parameters: ["look": .number(.nan)], catalog: catalog) }
        #expect(throws: FilterError.notANumber(filter: "pick", parameter: "amount", value: "all")) {
            try FilterSettings(name: "pick", parameters: ["amount": "all"], catalog: catalog)
        }
    }

    @Test func changingOtherParametersKeepsTheChoice() throws {
        let chain = try FilterChain(validating: [("pick", ["look": "warm"], .all)], catalog: catalog)
        let changed = try chain.replacingParameters(at: 0, with: ["amount": 0.25], catalog: catalog)
        #expect(changed.first.choice("look") == "warm" && changed.first["amount"] == 0.25)
        #expect(changed != chain)
        let other = try chain.replacingParameters(at: 0, with: ["look": "dark"], catalog: catalog)
        #expect(other.first.choice("look") == "dark")
    }

    /// The wire form: `kind` and `choices` beside the integer fields a numeric client reads; a
    /// numeric parameter's object is as before (no `kind`).
    @Test func choicesEncodeWithIntegerFallback() throws {
        let data = try JSONEncoder().encode(PickFilter.descriptor)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let params = try #require(object["params"] as? [[String: Any]])
        #expect(params[0]["kind"] as? String == "choice" && params[0]["type"] as? String == "integer")
        #expect(params[0]["default"] as? Double == 1 && params[0]["min"] as? Double == 0 && params[0]["max"] as? Double == 2)
        let choices = try #require(params[0]["choices"] as? [[String: String]])
        #expect(choices[2] == ["id": "dark", "label": "Dark", "thumbnail": "/t/dark.jpg"])
        #expect(params[1]["kind"] == nil && params[1]["choices"] == nil)
        #expect(try JSONDecoder().decode(FilterDescriptor.self, from: data) == PickFilter.descriptor)
    }
}
