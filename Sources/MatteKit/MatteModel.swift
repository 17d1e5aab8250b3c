/// One of MediaPipe's two selfie-segmentation networks as `make deps` lays them out in `models/`
/// (converted by `deps/person_matte/convert.py`; inputs and outputs in its README): a picture of
/// fixed size, NHWC interleaved RGB floats in 0…1, stretched from the frame; out comes the
/// probability of "person" per pixel, the same size, row-major.
struct MatteModel: Hashable, Sendable {
    let file: String
    let width: Int
    let height: Int

    /// 256×144, for pictures wider than high.
    static let landscape = MatteModel(file: "selfie_segmentation_landscape.xml", width: 256, height: 144)
    /// 256×256, for the others.
    static let square = MatteModel(file: "selfie_segmentation.xml", width: 256, height: 256)
    /// Both, for the check that they are laid out.
    static let all = [landscape, square]

    /// The network for a frame of `width × height`: the landscape one for a wide picture, as
    /// MediaPipe chooses (its `model_selection`), so that a 16:9 frame is squeezed least.
    static func forFrame(width: Int, height: Int) -> MatteModel {
        width > height ? .landscape : .square
    }

    /// The network's input name (the output is taken by index: it is named differently in each).
    static let inputName = "input_1"
}
