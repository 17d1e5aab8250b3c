import FilterKit
import Foundation

/// The options that choose a filter chain, shared by the subcommands that apply one: each
/// `--filter` adds a link, the `--param`s after it set that link's parameters and a `--region`
/// after it where it applies.
///
/// Angles are given in degrees, as the page shows them (the protocol and `--json` carry radians).
enum FilterOptions {
    static let specs = [
        OptionSpec(name: "--filter", valueName: "NAME",
                   help: "Filter to apply (see 'filtercast filters'); repeat to chain up to \(FilterChain.maximumLength), applied in order. Default none.",
                   repeatable: true),
        OptionSpec(name: "--param", valueName: "K=V", help: "Set a parameter of the --filter before it (angles in degrees); repeatable.",
                   repeatable: true, qualifies: "--filter"),
        OptionSpec(name: "--region", valueName: "REGION",
                   help: "Apply the --filter before it to \(FilterRegion.allCases.map(\.rawValue).joined(separator: ", ")) only "
                       + "(default all; person and background need the person matte).",
                   repeatable: true, qualifies: "--filter"),
    ]

    /// The validated chain from the `--filter`s and their `--param`s (none without `--filter`),
    /// checked against `catalog`.
    static func chain(from options: ParsedOptions, catalog: FilterCatalog) throws -> FilterChain {
        let parameterSource = options.source("--param"), regionSource = options.source("--region")
        let requests = try options.groups("--filter").map { group in
            let texts = group.qualifiers.filter { $0.name == "--param" }.map(\.value)
            return (name: group.value,
                    parameters: try parameters(texts, of: group.value, source: parameterSource, catalog: catalog),
                    region: try region(group.qualifiers.filter { $0.name == "--region" }.map(\.value),
                                       of: group.value, source: regionSource))
        }
        do {
            // One filter keeps the plain messages; in a chain they name the link.
            if requests.count == 1 {
                return FilterChain(try FilterSettings(name: requests[0].name, parameters: requests[0].parameters,
                                                      region: requests[0].region, catalog: catalog))
            }
            return try FilterChain(validating: requests, catalog: catalog)
        } catch {
            // Name the variables when the filters or their parameters came from the environment.
            let variables = specs.map { options.source($0.name) }.filter { !$0.hasPrefix("-") }
            throw UsageError(description: variables.map { $0 + ": " }.joined() + described(error, in: requests.map(\.name)))
        }
    }

    /// A value as the command line takes it: angles in degrees (`90°`), other numbers plainly.
    static func shown(_ value: Double, of parameter: ParameterDescriptor) -> String {
        guard parameter.type == .angle else { return value.plainText }
        return "\(((value * 180 / .pi * 1000).rounded() / 1000).plainText)°"
    }

    /// A chain error as a command-line user counts: the first `--filter` is filter 1 (the
    /// protocol's link indexes count from 0).
    private static func described(_ error: any Error, in names: [String]) -> String {
        guard let error = error as? FilterError, case .inChain(let index, let reason) = error, names.indices.contains(index) else {
            return "\(error)"
        }
        return "--filter \(index + 1) of \(names.count) (\(names[index])): \(reason)"
    }

    /// The region of the `--filter` `filter` from its `--region`s (at most one; none: all).
    private static func region(_ texts: [String], of filter: String, source: String) throws -> FilterRegion {
        guard texts.count <= 1 else {
            throw UsageError(description: "\(source) is given \(texts.count) times for --filter \(filter): give it once")
        }
        guard let text = texts.first else { return .all }
        guard let region = FilterRegion(rawValue: text) else {
            throw UsageError(description: "\(source) must be one of \(FilterRegion.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
        }
        return region
    }

    /// `name=value` texts as values by name: numbers (angles of `filter` converted from degrees),
    /// or a choice's id for a parameter of the choice kind — never its index, which counts from 0
    /// where the page says "Style 1"; errors name the option as `source`.
    private static func parameters(_ texts: [String], of filter: String, source: String,
                                   catalog: FilterCatalog) throws -> [String: ParameterValue] {
        let descriptor = catalog.descriptor(named: filter)
        var parameters: [String: ParameterValue] = [:]
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(description: "\(source) must look like name=value, got '\(text)'")
            }
            let name = String(parts[0])
            let parameter = descriptor?.params.first(where: { $0.name == name })
            if let choices = parameter?.choices {
                guard choices.contains(where: { $0.id == parts[1] }) else {
                    throw UsageError(description: "\(source) \(name) takes a choice's id, one of "
                        + choices.map(\.id).joined(separator: ", ") + ", got '\(parts[1])'")
                }
                parameters[name] = .choice(String(parts[1]))
                continue
            }
            guard let value = Double(parts[1]) else {
                throw UsageError(description: "\(source) \(parts[0]) must be a number, got '\(parts[1])'")
            }
            guard let parameter, parameter.type == .angle else {
                parameters[name] = .number(value)
                continue
            }
            parameters[name] = .number(try radians(fromDegrees: value, of: parameter, filter: filter))
        }
        return parameters
    }

    /// Checks an angle against the parameter's range in degrees (so that the message speaks the
    /// user's unit), then converts it.
    private static func radians(fromDegrees degrees: Double, of parameter: ParameterDescriptor, filter: String) throws -> Double {
        let radians = degrees * .pi / 180
        // A hair of tolerance: ±180° must pass a range of ±π.
        guard radians >= parameter.min - 1e-9, radians <= parameter.max + 1e-9 else {
            throw UsageError(description: "\(filter).\(parameter.name) must be an angle in "
                + "\(shown(parameter.min, of: parameter))…\(shown(parameter.max, of: parameter)), got \(degrees.plainText)°")
        }
        return min(max(radians, parameter.min), parameter.max)
    }
}
