/// The YCbCr encoding of a decoded picture: which range its samples use and which luma
/// coefficients produced them. ``ColorConverter`` maps any of these to the frame format
/// (full range, BT.601).
public struct ColorSpace: Hashable, Sendable, CustomStringConvertible {
    public enum Range: Hashable, Sendable {
        /// Y in 16…235, Cb/Cr in 16…240 ("TV", "MPEG"): H.264, HEVC, VP9 and most video.
        case limited
        /// Y, Cb and Cr in 0…255 ("PC", "JPEG"): JFIF, `yuvj*` formats.
        case full
    }

    /// Luma coefficients of the RGB → YCbCr matrix.
    public enum Matrix: Hashable, Sendable {
        case bt601
        case bt709
        case bt2020

        /// (Kr, Kb); Kg = 1 − Kr − Kb.
        var coefficients: (kr: Double, kb: Double) {
            switch self {
            case .bt601: (0.299, 0.114)
            case .bt709: (0.2126, 0.0722)
            case .bt2020: (0.2627, 0.0593)
            }
        }
    }

    public var range: Range
    public var matrix: Matrix

    public init(range: Range, matrix: Matrix) {
        self.range = range
        self.matrix = matrix
    }

    /// The frame format: what JPEG expects.
    public static let jpeg = ColorSpace(range: .full, matrix: .bt601)

    public var description: String {
        "\(range == .full ? "full" : "limited")-range \(matrix)"
    }
}
