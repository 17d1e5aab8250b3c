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

    public init(name: String, label: String, category: Category, params: [ParameterDescriptor]) {
        self.name = name
        self.label = label
        self.category = category
        self.params = params
    }

    public func parameter(named name: String) -> ParameterDescriptor? {
        params.first { $0.name == name }
    }
}
