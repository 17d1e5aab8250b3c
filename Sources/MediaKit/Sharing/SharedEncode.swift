/// An H.264 stream encoded elsewhere — a rendition the page's viewers watch — that a publish
/// stream (or another writer) takes instead of running an encoder of its own: one encode serves
/// all. Its access units are Annex B with the SPS and PPS before every keyframe (no global
/// header), Constrained Baseline, full-range BT.601, one unit a picture in decoding order.
///
/// Threads: every member from any thread; sinks run on the encoder's thread.
public protocol SharedEncode: AnyObject, Sendable {
    /// What it is called where it is offered (a rendition id: `h264-720p`).
    var name: String { get }
    /// The encoder that makes it (`libx264`).
    var encoderName: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Every unit from now on is also handed to `sink`, and the encode runs as if watched, until
    /// ``detach(_:)`` with the returned token. The sink must return quickly (copy and queue).
    func attach(_ sink: @escaping @Sendable (EncodedAccessUnit) -> Void) -> Int
    func detach(_ token: Int)
    /// Asks for a keyframe soon (rate-limited by the encode's owner). While the session is
    /// paused it also brings a picture: a keyframe of the picture shown.
    func requestKeyframe()
}
