import FilterKit

extension ProtocolError {
    /// The error for a `setFilter`/`setParams` the catalog refused (``FilterSettings/init(name:parameters:catalog:)``,
    /// ``FilterChain``): an unknown filter is `unknown_filter`, an unknown parameter or `none`
    /// inside a longer chain `invalid_argument`, as is a choice's id for a numeric parameter; a value
    /// outside the parameter's hard range, a choice the parameter does not have, a chain too long
    /// or a region the server does not offer `out_of_range`; a link's error has the link's code. The message is the
    /// filter error's.
    public init(_ error: FilterError, id: MessageID? = nil) {
        self.init(code: Self.code(for: error), message: error.description, id: id)
    }

    private static func code(for error: FilterError) -> ErrorCode {
        switch error {
        case .unknownFilter: .unknownFilter
        case .unknownParameter, .noneInChain, .notANumber: .invalidArgument
        case .invalidValue, .unknownChoice, .chainTooLong, .regionUnavailable: .outOfRange
        case .inChain(_, let error): code(for: error)
        }
    }
}
