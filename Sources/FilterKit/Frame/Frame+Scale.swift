/// Parameter geometry shared by every filter, so a preset looks the same at 480p and at 4K:
/// lengths (radii, block sizes, widths) are given in pixels of a 1080-line frame and scale with
/// the frame's height; positions (centres) are fractions of the width and height, 0.5 being the
/// middle.
extension Frame {
    /// The frame height that parameter lengths refer to.
    public static let referenceHeight = 1080.0

    /// `length`, given in pixels of a 1080-line frame, in pixels of this frame.
    public func pixels(fromReference length: Double) -> Double {
        length * Double(height) / Frame.referenceHeight
    }

    /// The point at fractions (`x`, `y`) of the width and height, in luma pixel coordinates
    /// (pixel centres are at integer + 0.5).
    public func point(atFractionX x: Double, y: Double) -> (x: Double, y: Double) {
        (x * Double(width), y * Double(height))
    }
}
