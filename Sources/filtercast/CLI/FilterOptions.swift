import FilterKit

/// The options that choose a filter, shared by the subcommands that apply one.
enum FilterOptions {
    static let specs = [
        OptionSpec(name: "--filter", valueName: "NAME", help: "Filter to apply (see 'filtercast filters'); default none."),
        OptionSpec(name: "--param", valueName: "K=V", help: "Set a parameter of the filter; repeatable.", repeatable: true),
    ]

    /// The validated filter settings from `--filter` and its `--param`s.
    static func settings(from options: ParsedOptions) throws -> FilterSettings {
        let name = options.string("--filter") ?? "none"
        var parameters: [String: Double] = [:]
        for entry in options.entries where entry.name == "--param" {
            let parts = entry.value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(description: "\(options.source("--param")) must look like name=value, got '\(entry.value)'")
            }
            guard let value = Double(parts[1]) else {
                throw UsageError(description: "\(options.source("--param")) \(parts[0]) must be a number, got '\(parts[1])'")
            }
            parameters[String(parts[0])] = value
        }
        do {
            return try FilterSettings(name: name, parameters: parameters)
        } catch {
            // Name the variables when the filter or its parameters came from the environment.
            let variables = specs.map { options.source($0.name) }.filter { !$0.hasPrefix("-") }
            throw UsageError(description: variables.map { $0 + ": " }.joined() + error.description)
        }
    }
}
