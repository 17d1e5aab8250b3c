extension FilterDescriptor.Category {
    /// The heading a page shows above this category's filters ("Color effects"). Sent to pages in
    /// `hello.categories`, so that a page does not restate them.
    public var title: String {
        switch self {
        case .none: "None"
        case .colorAdjustment: "Color adjustment"
        case .colorEffect: "Color effects"
        case .blur: "Blur"
        case .sharpen: "Sharpen"
        case .stylize: "Stylize"
        case .distortion: "Distortion"
        }
    }
}
