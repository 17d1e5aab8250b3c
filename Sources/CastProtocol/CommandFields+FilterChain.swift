import FilterKit

extension CommandFields {
    /// `setFilter`'s two forms: `name` (+ `params`) for one filter, or `chain` for several;
    /// a message with both is refused rather than guessed at. `to`: which chain it replaces.
    func filterChoice() throws(ProtocolError) -> SessionCommand {
        let target = try chainTarget("to")
        guard fields["chain"] != nil else {
            return .setFilter(name: try string("name"), params: try parameters("params", required: false), to: target)
        }
        for key in ["name", "params"] where fields[key] != nil {
            throw ProtocolError(code: .invalidArgument,
                                message: "\(type) takes either name (+params) or chain, not both: "
                                    + "give each link its own name and params inside chain (got \(type).\(key) too)")
        }
        return .setFilterChain(try chain("chain"), to: target)
    }

    /// An array of 1…``FilterChain/maximumLength`` objects `{name, params, region}` (`region`
    /// optional: `all`, `person` or `background`), each read as strictly as a single filter's
    /// fields and named by its place (`setFilter.chain[2].name`).
    func chain(_ key: String) throws(ProtocolError) -> [FilterLinkRequest] {
        let limit = FilterChain.maximumLength
        let expected = "an array of 1…\(limit) filters {name, params}"
        let value = try required(key, expected)
        guard case .array(let elements) = value else { throw invalidArgument(key, expected, got: value) }
        guard (1...limit).contains(elements.count) else {
            throw ProtocolError(code: .outOfRange,
                                message: "\(type).\(key) must have 1…\(limit) filters, got \(elements.count)")
        }
        return try elements.enumerated().map { (index, element) throws(ProtocolError) in
            let path = "\(key)[\(index)]"
            guard case .object(let linkFields) = element else {
                throw invalidArgument(path, "an object {name, params}", got: element)
            }
            let link = CommandFields(type: "\(type).\(path)", fields: linkFields)
            let region = link.fields["region"] == nil
                ? FilterRegion.all : FilterRegion(rawValue: try link.choice("region", of: FilterRegion.allCases.map(\.rawValue)))!
            return FilterLinkRequest(name: try link.string("name"), params: try link.parameters("params", required: false),
                                     region: region)
        }
    }
}
