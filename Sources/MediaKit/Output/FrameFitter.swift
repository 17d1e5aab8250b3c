import FilterKit

/// Puts frames of any size into frames of one size: a copy when the sizes agree, else scaled
/// (``FrameScaler``, area) into the ``PictureFit`` of the picture, with black bars where the
/// shapes differ. What keeps an encoder's size while the session's changes: a recording or a
/// publish stream under way keeps the size it started at when another source plays.
///
/// Not thread-safe: one thread fits with it (the processing thread, for an ``EncoderFeed``).
public final class FrameFitter {
    public let width: Int
    public let height: Int
    /// The scaler for the last size of picture fitted, and where it puts it.
    private var scaling: (source: (width: Int, height: Int), fit: PictureFit, scaler: FrameScaler?)?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `frame` into `destination` (of the fitter's size), with its timing.
    public func fit(_ frame: Frame, into destination: Frame) {
        guard frame.width != width || frame.height != height else { return destination.copy(from: frame) }
        let scaling = scaling(for: frame)
        guard let scaler = scaling.scaler else {
            // swscale refuses no size a frame can have; should it, the picture is black, not stale.
            destination.paintBars(around: .nothing)
            return destination.copyTiming(from: frame)
        }
        scaler.scale(frame, into: destination, x: scaling.fit.x, y: scaling.fit.y)
        if !scaling.fit.covers(width: width, height: height) { destination.paintBars(around: scaling.fit) }
    }

    private func scaling(for frame: Frame) -> (source: (width: Int, height: Int), fit: PictureFit, scaler: FrameScaler?) {
        if let scaling, scaling.source == (frame.width, frame.height) { return scaling }
        let fit = PictureFit(pictureWidth: frame.width, pictureHeight: frame.height, frameWidth: width, frameHeight: height)
        let made = (source: (frame.width, frame.height), fit: fit,
                    scaler: FrameScaler(sourceWidth: frame.width, sourceHeight: frame.height, width: fit.width, height: fit.height))
        scaling = made
        return made
    }
}
