import Testing
import FilterKit

@Suite("FilterSettings")
struct FilterSettingsTests {
    /// A value a parameter must refuse, and the range its message must state.
    struct Rejected: Sendable, CustomStringConvertible {
        let filter: String
        let parameter: String
        let value: Double
        let range: String

        var description: String { "\(filter).\(parameter)=\(value)" }

        static let cases = [
            Rejected(filter: "sepia", parameter: "intensity", value: .nan, range: "0…1"),
            Rejected(filter: "sepia", parameter: "intensity", value: .infinity, range: "0…1"),
            Rejected(filter: "sepia", parameter: "intensity", value: -.infinity, range: "0…1"),
            Rejected(filter: "sepia", parameter: "intensity", value: -0.01, range: "0…1"),
            Rejected(filter: "sepia", parameter: "intensity", value: 1.5, range: "0…1"),
            Rejected(filter: "pixellate", parameter: "scale", value: 0, range: "1…100"),
            Rejected(filter: "pixellate", parameter: "scale", value: 0.4, range: "1…100"),
            Rejected(filter: "pixellate", parameter: "scale", value: 100.6, range: "1…100"),
            Rejected(filter: "pixellate", parameter: "scale", value: -3, range: "1…100"),
            Rejected(filter: "pixellate", parameter: "scale", value: .nan, range: "1…100"),
            Rejected(filter: "pixellate", parameter: "scale", value: 1e300, range: "1…100"),
            Rejected(filter: "comic", parameter: "levels", value: 1, range: "2…16"),
            Rejected(filter: "comic", parameter: "levels", value: 17, range: "2…16"),
            Rejected(filter: "comic", parameter: "edgeThreshold", value: 0.01, range: "0.02…2"),
            Rejected(filter: "comic", parameter: "edgeThreshold", value: 2.5, range: "0.02…2"),
            Rejected(filter: "comic", parameter: "edgeThreshold", value: .infinity, range: "0.02…2"),
        ]
    }

    @Test("Invalid values are rejected, naming the parameter and its range", arguments: Rejected.cases)
    func invalidValues(rejected: Rejected) throws {
        let error = #expect(throws: FilterError.self) {
            try FilterSettings(name: rejected.filter, parameters: [rejected.parameter: rejected.value])
        }
        let thrown = try #require(error)
        guard case .invalidValue(let filter, let parameter, let value, _, _) = thrown else {
            Issue.record("expected invalidValue, got \(thrown)")
            return
        }
        #expect(filter == rejected.filter)
        #expect(parameter == rejected.parameter)
        #expect(value == rejected.value || (value.isNaN && rejected.value.isNaN))
        let message = thrown.description
        #expect(message.contains("\(rejected.filter).\(rejected.parameter)"), "\(message)")
        #expect(message.contains(rejected.range), "\(message)")
    }

    @Test("Exact messages for out-of-range and non-finite values")
    func invalidValueMessages() {
        #expect(throws: FilterError.invalidValue(filter: "sepia", parameter: "intensity", value: 2, min: 0, max: 1)) {
            try FilterSettings(name: "sepia", parameters: ["intensity": 2])
        }
        #expect(FilterError.invalidValue(filter: "sepia", parameter: "intensity", value: 2, min: 0, max: 1).description
            == "sepia.intensity must be a number in 0…1, got 2")
        #expect(FilterError.invalidValue(filter: "comic", parameter: "edgeThreshold", value: 2.5, min: 0.02, max: 2).description
            == "comic.edgeThreshold must be a number in 0.02…2, got 2.5")
        #expect(FilterError.invalidValue(filter: "sepia", parameter: "intensity", value: .nan, min: 0, max: 1).description
            == "sepia.intensity must be a number in 0…1, got nan")
        #expect(FilterError.invalidValue(filter: "sepia", parameter: "intensity", value: -.infinity, min: 0, max: 1).description
            == "sepia.intensity must be a number in 0…1, got -inf")
    }

    @Test("An unknown filter is rejected, listing the known ones")
    func unknownFilter() throws {
        let error = #expect(throws: FilterError.self) { try FilterSettings(name: "blur") }
        let thrown = try #require(error)
        let known = FilterCatalog.standard.names
        #expect(thrown == .unknownFilter("blur", known: known))
        #expect(thrown.description == "unknown filter 'blur' (known: \(known.joined(separator: ", ")))")
        #expect(known.contains("sepia") && known.contains("comic"))
        // Names are case-sensitive.
        #expect(throws: FilterError.self) { try FilterSettings(name: "Sepia") }
        #expect(throws: FilterError.self) { try FilterSettings(name: "") }
    }

    @Test("An unknown parameter is rejected, naming it and the known ones")
    func unknownParameter() throws {
        let error = #expect(throws: FilterError.self) {
            try FilterSettings(name: "comic", parameters: ["levels": 4, "radius": 3])
        }
        let thrown = try #require(error)
        #expect(thrown == .unknownParameter(filter: "comic", parameter: "radius", known: ["levels", "edgeThreshold"]))
        #expect(thrown.description.contains("'radius'"))
        #expect(thrown.description.contains("levels, edgeThreshold"))

        let none = #expect(throws: FilterError.self) { try FilterSettings(name: "none", parameters: ["intensity": 1]) }
        #expect(none?.description == "filter 'none' has no parameters, got 'intensity'")
    }

    @Test("Defaults fill missing parameters")
    func defaultsFillGaps() throws {
        #expect(try settings("sepia").values == ["intensity": 1])
        #expect(try settings("pixellate").values == ["scale": 8])
        #expect(try settings("comic").values == ["levels": 5, "edgeThreshold": 0.2])
        #expect(try settings("comic", ["levels": 9]).values == ["levels": 9, "edgeThreshold": 0.2])
        #expect(try settings("comic", ["edgeThreshold": 0.5])["levels"] == 5)
        #expect(try settings("none").values.isEmpty)
        // Every parameter of every filter gets a value, and it is the descriptor's default.
        for descriptor in FilterCatalog.standard.descriptors {
            let validated = try settings(descriptor.name)
            #expect(validated.values == Dictionary(uniqueKeysWithValues: descriptor.params.map { ($0.name, $0.default) }))
        }
    }

    @Test("Integer parameters are rounded; real ones are kept as given",
          arguments: [(0.6, 1.0), (2.4, 2), (2.5, 3), (7.6, 8), (99.5, 100), (100.4, 100)])
    func integerRounding(given: Double, expected: Double) throws {
        #expect(try settings("pixellate", ["scale": given])["scale"] == expected)
    }

    @Test("Real parameters keep their value; range ends are inclusive")
    func realValuesAndBounds() throws {
        #expect(try settings("sepia", ["intensity": 0.337])["intensity"] == 0.337)
        #expect(try settings("sepia", ["intensity": 0])["intensity"] == 0)
        #expect(try settings("sepia", ["intensity": 1])["intensity"] == 1)
        #expect(try settings("comic", ["edgeThreshold": 0.02])["edgeThreshold"] == 0.02)
        #expect(try settings("comic", ["edgeThreshold": 2])["edgeThreshold"] == 2)
        #expect(try settings("comic", ["levels": 2.4])["levels"] == 2)
        #expect(try settings("comic", ["levels": 16])["levels"] == 16)
    }

    @Test("Settings are values: equal when name and values are")
    func equality() throws {
        #expect(try settings("sepia", ["intensity": 1]) == settings("sepia"))
        #expect(try settings("pixellate", ["scale": 7.6]) == settings("pixellate", ["scale": 8]))
        #expect(try settings("sepia", ["intensity": 0.5]) != settings("sepia"))
        #expect(try settings("none") == FilterSettings.none)
        #expect(FilterSettings.none.name == "none" && FilterSettings.none.values.isEmpty)
    }

    @Test("description lists parameters sorted by name")
    func description() throws {
        #expect(FilterSettings.none.description == "none")
        #expect(try settings("sepia", ["intensity": 0.5]).description == "sepia(intensity=0.5)")
        #expect(try settings("comic").description == "comic(edgeThreshold=0.2, levels=5)", "integers without .0")
    }

    @Test("Validation uses the catalog it is given")
    func customCatalog() throws {
        let catalog = FilterCatalog([FilterCatalog.Entry(NoFilter.self), FilterCatalog.Entry(PixellateFilter.self)])
        #expect(throws: FilterError.unknownFilter("sepia", known: ["none", "pixellate"])) {
            try FilterSettings(name: "sepia", catalog: catalog)
        }
        #expect(try FilterSettings(name: "pixellate", parameters: ["scale": 3], catalog: catalog)["scale"] == 3)
    }
}
