/// A command-line option of a subcommand: a flag (`--json`) or an option with a value
/// (`--input SRC`), possibly repeated (`--param k=v`).
struct OptionSpec {
    let name: String
    /// Shown in help; nil for a flag.
    let valueName: String?
    let help: String
    var repeatable = false
}

/// A subcommand's interface: what `--help` prints and what the parser accepts.
struct CommandSpec {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]

    var help: String {
        let width = options.map { optionLabel($0).count }.max() ?? 0
        let lines = options.map { option in
            let label = optionLabel(option)
            return "  " + label + String(repeating: " ", count: width - label.count + 2) + option.help
        }
        return "\(summary)\n\nUsage: \(usage)\n\nOptions:\n" + lines.joined(separator: "\n")
            + "\n  -h, --help" + String(repeating: " ", count: max(0, width - 8)) + "Show this help."
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
    /// (option name, value) in command-line order; flags have an empty value.
    private(set) var entries: [(name: String, value: String)] = []

    /// Parses `arguments` (after the subcommand) against `command`. Accepts `--name value` and
    /// `--name=value`; rejects unknown options, missing values and repeats of single options.
    init(_ arguments: [String], for command: CommandSpec) throws {
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
                throw UsageError(description: "unknown option '\(name)'")
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
    }

    func has(_ name: String) -> Bool { entries.contains { $0.name == name } }

    func string(_ name: String) -> String? { entries.last { $0.name == name }?.value }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(name) must be a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return value
    }
}
