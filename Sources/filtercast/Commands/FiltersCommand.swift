import CastProtocol
import FilterKit
import Foundation

/// `filtercast filters`: the filter catalog with every parameter's metadata.
enum FiltersCommand: Subcommand {
    static let spec = CommandSpec(
        name: "filters",
        summary: "List the filters and their parameters (names, ranges, defaults; angles in degrees, as --param takes them).",
        usage: "filtercast filters [--json]",
        options: [OptionSpec(name: "--json", valueName: nil,
                             help: "Print {\"filters\":[…],\"regions\":[…]}, as /api/filters gives them (regions only with the person matte).")])

    static func run(_ options: ParsedOptions) throws {
        let catalog = StyleOptions.catalog(with: nil, engines: Engines())
        if options.has("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(CatalogListing(catalog)), as: UTF8.self))
            return
        }
        let descriptors = catalog.descriptors
        for filter in descriptors {
            print("\(filter.name) — \(filter.label) (\(filter.category.rawValue))")
            for parameter in filter.params {
                let value = { (value: Double) in FilterOptions.shown(value, of: parameter) }
                var line = "    \(parameter.name): \(parameter.label), \(parameter.type.rawValue) "
                line += "\(value(parameter.min))…\(value(parameter.max)), default \(value(parameter.default))"
                if let identity = parameter.identity { line += ", no effect at \(value(identity))" }
                if let choices = parameter.choices { line += "; one of " + choices.map(\.id).joined(separator: ", ") + " (--param takes the id)" }
                print(line)
            }
        }
    }
}
