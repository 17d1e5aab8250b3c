/// Which style a `style` link paints in: one of the shipped network's 26, or the style code of a
/// picture someone uploaded (``UploadedStyles``), run through the arbitrary-style network.
enum PaintingStyle: Sendable, Equatable {
    /// The index in ``StyleModel/shipped``'s 26 styles.
    case shipped(Int)
    /// ``StyleModel/predictor``'s 100 values for a picture.
    case code([Float])

    /// The network that paints in it.
    var model: StyleModel {
        switch self {
        case .shipped: .shipped
        case .code: .arbitrary
        }
    }

    /// Sets `network`'s style input (a network of ``model``) to this style.
    func load(into network: StyleNetwork) {
        switch self {
        case .shipped(let index):
            network.style.update(repeating: 0)
            network.style[index] = 1
        case .code(let values):
            precondition(values.count == network.style.count, "a style code of \(values.count) values")
            _ = network.style.update(fromContentsOf: values)
        }
    }
}
