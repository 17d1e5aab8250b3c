/// What a filter is and which parameters it takes: the catalog entry a page builds its picker
/// and sliders from.
public struct FilterDescriptor: Sendable, Codable, Equatable {
    public enum Category: String, Sendable, Codable, CaseIterable {
        case none
        case colorAdjustment
        case colorEffect
        case blur
        case sharpen
        case stylize
        case distortion
    }

    public let name: String
    public let label: String
    public let category: Category
    public let params: [ParameterDescriptor]
    /// For a filter whose picture a network refreshes beside the frames (`style`): the refreshes a
    /// second the network reaches on this machine at the height it runs at, once measured; nil for
    /// every other filter and before (absent from the JSON: a v1 client's catalog is unchanged).
    public var refreshHz: Double?

    public init(name: String, label: String, category: Category, params: [ParameterDescriptor], refreshHz: Double? = nil) {
        self.name = name
        self.label = label
        self.category = category
        self.params = params
        self.refreshHz = refreshHz
    }

    public func parameter(named name: String) -> ParameterDescriptor? {
        params.first { $0.name == name }
    }
}
