import Foundation

/// A command-line option of a subcommand: a flag (`--json`) or an option with a value
/// (`--input SRC`), possibly repeated (`--param k=v`).
struct OptionSpec {
    let name: String
    /// Shown in help; nil for a flag.
    let valueName: String?
    let help: String
    var repeatable = false

    /// The environment variable that can give this option to a command that reads the
    /// environment: the flag without its dashes, upper-cased, `-` → `_`, after `FILTERCAST_`
    /// (`--max-clients` → `FILTERCAST_MAX_CLIENTS`), unless the option names its own
    /// (``environmentOverride``). Nil for single-dash options (`-o`).
    var environmentName: String? {
        guard name.hasPrefix("--") else { return nil }
        return environmentOverride ?? "FILTERCAST_" + String(name.dropFirst(2).map { $0 == "-" ? "_" : $0 }).uppercased()
    }
    /// A variable of its own (`--channel`'s is the plural `FILTERCAST_CHANNELS`).
    var environmentOverride: String? = nil
    /// What separates a repeatable option's values in its variable: a comma, unless its values
    /// may hold commas themselves (`--channel` inputs are URLs: a semicolon).
    var environmentSeparator: Character = ","
    /// The option this one qualifies (`--param` qualifies `--filter`): it belongs to the nearest
    /// one before it, and given before any it is a usage error. See ``ParsedOptions/groups(_:)``.
    var qualifies: String? = nil
}

/// An environment variable a command reads that gives no option (where the OpenVINO runtime is):
/// known to the parser, listed in the help's environment section.
struct VariableSpec {
    let name: String
    let help: String
}

/// A subcommand's interface: what `--help` prints and what the parser accepts.
struct CommandSpec {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    /// Whether each option may also come from its `environmentName` variable.
    var readsEnvironment = false
    /// The variables such a command reads besides its options' (``Engines/variables``).
    var variables: [VariableSpec] = []

    /// Two columns: each option (and `-h, --help`) with its value's name, then its text, every
    /// text starting in the same column; the environment section likewise, then the other
    /// variables read (``variables``).
    var help: String {
        let helpLabel = "-h, --help"
        let width = (options.map { optionLabel($0).count } + variables.map(\.name.count) + [helpLabel.count]).max()!
        let row = { (label: String, text: String) in "  " + label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + text }
        let lines = options.map { row(optionLabel($0), $0.help) } + [row(helpLabel, "Show this help.")]
        var text = "\(summary)\n\nUsage: \(usage)\n\nOptions:\n" + lines.joined(separator: "\n")
        if readsEnvironment {
            let optionVariables = options.compactMap { option in option.environmentName.map { row(optionLabel(option), $0) } }
            text += "\n\nEnvironment (the command line wins; an empty variable counts as unset):\n"
                + optionVariables.joined(separator: "\n")
                + "\n  Switches take 1/true/yes/on or 0/false/no/off; repeatable options a comma-separated list"
                + options.filter { $0.repeatable && $0.environmentSeparator != "," }.compactMap { option in
                    option.environmentName.map { " (\($0): separated by \(option.environmentSeparator))" }
                }.joined() + "."
                + (variables.isEmpty ? "" : "\n\nAlso read:\n" + variables.map { row($0.name, $0.help) }.joined(separator: "\n"))
        }
        return text
    }

    private func optionLabel(_ option: OptionSpec) -> String {
        option.valueName.map { "\(option.name) \($0)" } ?? option.name
    }
}

/// A bad command line: printed as one line, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// `--help` was asked for.
struct HelpRequested: Error {}

/// The options given to a subcommand, in order.
struct ParsedOptions {
    let command: CommandSpec
    /// (option name, value) in command-line order, then those from the environment; flags have
    /// an empty value.
    private(set) var entries: [(name: String, value: String)] = []
    /// The options whose values came from their environment variable.
    private var fromEnvironment: Set<String> = []
    /// One warning for each `FILTERCAST_*` variable that names no option (a typo such as
    /// `FILTERCAST_PORTT`), with the nearest known name when one is close.
    private(set) var unknownVariables: [String] = []

    /// Parses `arguments` (after the subcommand) against `command`. Accepts `--name value` and
    /// `--name=value`; rejects unknown options, missing values and repeats of single options.
    /// When the command reads the environment, each option absent from `arguments` is taken from
    /// its variable in `environment`, if set.
    init(_ arguments: [String], for command: CommandSpec,
         environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.command = command
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { throw HelpRequested() }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                throw UsageError(description: "unexpected argument '\(argument)'")
            }
            var name = argument, inlineValue: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                let hint = name.nearest(among: command.options.map(\.name) + ["--help"]).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(description: "unknown option '\(name)'\(hint)")
            }
            if !option.repeatable && entries.contains(where: { $0.name == name }) {
                throw UsageError(description: "\(name) given more than once")
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError(description: "\(name) takes no value") }
                entries.append((name, ""))
                continue
            }
            if let inlineValue {
                entries.append((name, inlineValue))
            } else if index < arguments.count {
                entries.append((name, arguments[index]))
                index += 1
            } else {
                throw UsageError(description: "\(name) needs a value (\(option.valueName!))")
            }
        }
        if command.readsEnvironment { try addEnvironment(environment) }
        try checkQualifiers()
    }

    /// Every option that qualifies another (``OptionSpec/qualifies``) comes after one of those.
    private func checkQualifiers() throws {
        var seen: Set<String> = []
        for entry in entries {
            seen.insert(entry.name)
            guard let leader = command.options.first(where: { $0.name == entry.name })?.qualifies,
                  !seen.contains(leader) else { continue }
            throw UsageError(description: "\(source(entry.name)) comes before any \(leader): put it after the \(leader) it belongs to")
        }
    }

    private mutating func addEnvironment(_ environment: [String: String]) throws {
        let known = command.options.compactMap(\.environmentName) + command.variables.map(\.name)
        unknownVariables = environment.keys.filter { $0.hasPrefix("FILTERCAST_") && !known.contains($0) }.sorted().map { name in
            let hint = name.nearest(among: known).map { " (did you mean \($0)?)" } ?? ""
            return "unknown environment variable \(name) is ignored\(hint)"
        }
        for option in command.options where !has(option.name) {
            guard let variable = option.environmentName, let text = environment[variable], !text.isEmpty else { continue }
            let values: [String]
            if option.valueName == nil {
                switch text.lowercased() {
                case "1", "true", "yes", "on": values = [""]
                case "0", "false", "no", "off": values = []
                default: throw UsageError(description: "\(variable) must be 1, true, yes, on, 0, false, no or off, got '\(text)'")
                }
            } else if option.repeatable {
                values = text.split(separator: option.environmentSeparator).map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                values = [text]
            }
            entries += values.map { (option.name, $0) }
            if !values.isEmpty { fromEnvironment.insert(option.name) }
        }
    }

    /// How errors name option `name`: its environment variable when the value came from there.
    func source(_ name: String) -> String {
        guard fromEnvironment.contains(name),
              let variable = command.options.first(where: { $0.name == name })?.environmentName else { return name }
        return variable
    }

    /// Every `leader` option's value, each with the options that qualify it (``OptionSpec/qualifies``)
    /// given after it and before the next `leader`, all in command-line order.
    func groups(_ leader: String) -> [(value: String, qualifiers: [(name: String, value: String)])] {
        let qualifying = Set(command.options.filter { $0.qualifies == leader }.map(\.name))
        var groups: [(value: String, qualifiers: [(name: String, value: String)])] = []
        for entry in entries {
            if entry.name == leader {
                groups.append((entry.value, []))
            } else if qualifying.contains(entry.name) {
                groups[groups.count - 1].qualifiers.append(entry)
            }
        }
        return groups
    }

    func has(_ name: String) -> Bool { entries.contains { $0.name == name } }

    func string(_ name: String) -> String? { entries.last { $0.name == name }?.value }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(source(name)) must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The value of `name` as one of `Choice`'s cases, by raw value.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String) throws -> Choice? where Choice.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(description: "\(source(name)) must be one of \(names), got '\(text)'")
        }
        return value
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(source(name)) must be a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }
}
