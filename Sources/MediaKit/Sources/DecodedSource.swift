/// What a ``FileSource`` and a ``LiveSource`` share: a ``Decoder`` whose interruption, sound
/// and warnings they pass on. Not a source by itself: its subclasses read.
public class DecodedSource {
    public let info: SourceInfo
    let decoder: Decoder

    init(decoder: Decoder, info: SourceInfo) {
        self.decoder = decoder
        self.info = info
    }

    public var interruption: Interruption { decoder.interruption }

    public func routeAudio(to queue: AudioPacketQueue?) {
        decoder.audio?.route(to: queue)
    }

    public var onWarning: (String) -> Void {
        get { decoder.onWarning }
        set { decoder.onWarning = newValue }
    }
}
