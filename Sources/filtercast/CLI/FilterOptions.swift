import FilterKit

/// The options that choose a filter chain, shared by the subcommands that apply one: each
/// `--filter` adds a link, and the `--param`s after it set that link's parameters.
enum FilterOptions {
    static let specs = [
        OptionSpec(name: "--filter", valueName: "NAME",
                   help: "Filter to apply (see 'filtercast filters'); repeat to chain up to \(FilterChain.maximumLength), applied in order. Default none.",
                   repeatable: true),
        OptionSpec(name: "--param", valueName: "K=V", help: "Set a parameter of the --filter before it; repeatable.",
                   repeatable: true, qualifies: "--filter"),
    ]

    /// The validated chain from the `--filter`s and their `--param`s (none without `--filter`).
    static func chain(from options: ParsedOptions) throws -> FilterChain {
        let parameterSource = options.source("--param")
        let requests = try options.groups("--filter").map { group in
            (name: group.value, parameters: try parameters(group.qualifiers.map(\.value), source: parameterSource))
        }
        do {
            // One filter keeps the plain messages; in a chain they name the link.
            if requests.count == 1 {
                return FilterChain(try FilterSettings(name: requests[0].name, parameters: requests[0].parameters))
            }
            return try FilterChain(validating: requests)
        } catch {
            // Name the variables when the filters or their parameters came from the environment.
            let variables = specs.map { options.source($0.name) }.filter { !$0.hasPrefix("-") }
            throw UsageError(description: variables.map { $0 + ": " }.joined() + error.description)
        }
    }

    /// `name=value` texts as numbers by name; errors name the option as `source`.
    private static func parameters(_ texts: [String], source: String) throws -> [String: Double] {
        var parameters: [String: Double] = [:]
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(description: "\(source) must look like name=value, got '\(text)'")
            }
            guard let value = Double(parts[1]) else {
                throw UsageError(description: "\(source) \(parts[0]) must be a number, got '\(parts[1])'")
            }
            parameters[String(parts[0])] = value
        }
        return parameters
    }
}
