/// What takes the AAC packets of an ``AudioPipeline`` besides the page's listeners: a recording,
/// a published stream. Called on the audio thread, once per packet; must copy what it keeps and
/// return at once.
public protocol AudioSink: AnyObject, Sendable {
    func take(_ packet: EncodedAudio)
}
