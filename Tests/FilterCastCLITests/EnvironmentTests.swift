@testable import filtercast
import Testing

/// Options from environment variables: one naming rule, the same validation as the flags, the
/// command line winning, and errors that name the variable.
@Suite struct EnvironmentTests {
    static let spec = CommandSpec(name: "demo", summary: "", usage: "", options: [
        OptionSpec(name: "--port", valueName: "P", help: ""),
        OptionSpec(name: "--max-clients", valueName: "N", help: ""),
        OptionSpec(name: "--no-loop", valueName: nil, help: ""),
        OptionSpec(name: "--allow-origin", valueName: "ORIGIN", help: "", repeatable: true),
        OptionSpec(name: "-o", valueName: "OUT", help: ""),
    ], readsEnvironment: true)

    @Test func everyDoubleDashOptionGetsAVariableByOneRule() throws {
        let names = Self.spec.options.map(\.environmentName)
        #expect(names == ["FILTERCAST_PORT", "FILTERCAST_MAX_CLIENTS", "FILTERCAST_NO_LOOP", "FILTERCAST_ALLOW_ORIGIN", nil])
        for option in ServeCommand.spec.options {
            let variable = option.environmentName ?? ""
            #expect(variable.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } && variable.count > 11, "\(variable)")
        }
    }

    @Test func valuesComeFromTheEnvironmentAndTheFlagWins() throws {
        let environment = ["FILTERCAST_PORT": "9000", "FILTERCAST_MAX_CLIENTS": "7", "FILTERCAST_NO_LOOP": "yes",
                           "FILTERCAST_ALLOW_ORIGIN": "https://a.example, https://b.example,", "FILTERCAST_O": "x"]
        let fromEnvironment = try ParsedOptions([], for: Self.spec, environment: environment)
        #expect(try fromEnvironment.int("--port", in: 0...65535) == 9000)
        #expect(try fromEnvironment.int("--max-clients", in: 1...100) == 7)
        #expect(fromEnvironment.has("--no-loop"))
        #expect(fromEnvironment.entries.filter { $0.name == "--allow-origin" }.map(\.value)
                == ["https://a.example", "https://b.example"])
        #expect(!fromEnvironment.has("-o"), "single-dash options have no variable")
        #expect(fromEnvironment.source("--port") == "FILTERCAST_PORT")

        let flags = try ParsedOptions(["--port", "8081", "--allow-origin", "https://c.example"], for: Self.spec,
                                      environment: environment)
        #expect(try flags.int("--port", in: 0...65535) == 8081)
        #expect(flags.source("--port") == "--port")
        #expect(flags.entries.filter { $0.name == "--allow-origin" }.map(\.value) == ["https://c.example"])
        #expect(try flags.int("--max-clients", in: 1...100) == 7, "variables still fill the options not given")
    }

    @Test func switchesTakeBooleanWordsAndEmptyMeansUnset() throws {
        for word in ["0", "false", "No", "OFF"] {
            #expect(!(try ParsedOptions([], for: Self.spec, environment: ["FILTERCAST_NO_LOOP": word]).has("--no-loop")))
        }
        for word in ["1", "TRUE", "yes", "on"] {
            #expect(try ParsedOptions([], for: Self.spec, environment: ["FILTERCAST_NO_LOOP": word]).has("--no-loop"))
        }
        #expect(try ParsedOptions([], for: Self.spec, environment: ["FILTERCAST_PORT": ""]).string("--port") == nil)
    }

    @Test func invalidValuesFailNamingTheVariable() throws {
        let badPort = try ParsedOptions([], for: Self.spec, environment: ["FILTERCAST_PORT": "abc"])
        let portError = #expect(throws: UsageError.self) { try badPort.int("--port", in: 0...65535) }
        #expect(portError?.description.hasPrefix("FILTERCAST_PORT ") == true, "\(String(describing: portError))")
        #expect(portError?.description.contains("'abc'") == true)

        let switchError = #expect(throws: UsageError.self) {
            try ParsedOptions([], for: Self.spec, environment: ["FILTERCAST_NO_LOOP": "maybe"])
        }
        #expect(switchError?.description.contains("FILTERCAST_NO_LOOP") == true)
        #expect(switchError?.description.contains("'maybe'") == true)

        // The flag's own error still names the flag.
        let flagError = #expect(throws: UsageError.self) {
            try ParsedOptions(["--port", "abc"], for: Self.spec, environment: [:]).int("--port", in: 0...65535)
        }
        #expect(flagError?.description.hasPrefix("--port ") == true)
    }

    @Test func commandsThatDoNotReadTheEnvironmentIgnoreIt() throws {
        let spec = CommandSpec(name: "demo", summary: "", usage: "", options: Self.spec.options)
        #expect(try ParsedOptions([], for: spec, environment: ["FILTERCAST_PORT": "9000"]).string("--port") == nil)
        #expect(!spec.help.contains("FILTERCAST_PORT"))
        #expect(Self.spec.help.contains("FILTERCAST_MAX_CLIENTS"))
    }

    /// A typo in a variable name is named in a warning (with the nearest real one), not ignored silently.
    @Test func unknownVariablesAreNamed() throws {
        let options = try ParsedOptions([], for: Self.spec, environment: [
            "FILTERCAST_PORTT": "9000", "FILTERCAST_ZZZZZZZZZZZZ": "1", "FILTERCAST_PORT": "9001", "PATH": "/bin",
        ])
        #expect(options.unknownVariables == [
            "unknown environment variable FILTERCAST_PORTT is ignored (did you mean FILTERCAST_PORT?)",
            "unknown environment variable FILTERCAST_ZZZZZZZZZZZZ is ignored",
        ])
        #expect(try options.int("--port", in: 0...65535) == 9001)
        #expect("kitten".editDistance(to: "sitting") == 3 && "".editDistance(to: "abc") == 3 && "abc".editDistance(to: "abc") == 0)
    }

    /// The engines' variables give no option but are read (``Engines``): `serve` does not call
    /// them unknown, its help lists them, and they choose the engines.
    @Test func theEnginesVariablesAreKnownAndRead() throws {
        let empty = "/nonexistent-openvino"
        let environment = ["FILTERCAST_OPENVINO": empty, "FILTERCAST_STYLE_NETWORK": "float32", "FILTERCAST_STYLE_SLOWDOWN": "3"]
        #expect(try ParsedOptions([], for: ServeCommand.spec, environment: environment).unknownVariables == [])
        for variable in ["FILTERCAST_OPENVINO", "FILTERCAST_STYLE_NETWORK", "FILTERCAST_STYLE_SLOWDOWN"] {
            #expect(ServeCommand.spec.help.contains("\n  \(variable) "), "\(variable) not in the help")
        }
        let engines = Engines(environment: environment)
        for reason in [engines.style.failureDescription, engines.matte.failureDescription] {
            #expect(reason?.contains(empty) == true, "\(reason ?? "made")")
        }
    }
}

extension Result {
    /// The failure's description, nil for a success.
    fileprivate var failureDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return "\(error)"
    }
}
