import FilterKit

extension ProtocolError {
    /// The error for a `setFilter`/`setParams` the catalog refused (``FilterSettings/init(name:parameters:catalog:)``):
    /// an unknown filter is `unknown_filter`, an unknown parameter `invalid_argument`, a value
    /// outside the parameter's hard range `out_of_range`. The message is the filter error's.
    public init(_ error: FilterError, id: MessageID?) {
        let code: ErrorCode = switch error {
        case .unknownFilter: .unknownFilter
        case .unknownParameter: .invalidArgument
        case .invalidValue: .outOfRange
        }
        self.init(code: code, message: error.description, id: id)
    }
}
