extension FilterDescriptor {
    /// A stylize filter made of cells: one length (`lengthName`, in 1080p pixels, 1 being no
    /// effect) and the centre the cells are placed from.
    static func cells(name: String, label: String, lengthName: String, lengthLabel: String,
                      default length: Double) -> FilterDescriptor {
        FilterDescriptor(name: name, label: label, category: .stylize, params: [
            ParameterDescriptor(name: lengthName, label: lengthLabel, default: length, min: 1, max: 200, sliderMax: 100,
                                step: 1, identity: 1),
            .centerX, .centerY,
        ])
    }
}
