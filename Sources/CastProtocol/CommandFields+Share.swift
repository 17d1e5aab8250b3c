extension CommandFields {
    /// `share` `start`'s fields: `codec`, `width` and `height` (16…7680 × 16…4320; the server's
    /// limits are checked later), `label` (optional, cut to ``ShareRequest/maximumLabelLength``),
    /// `takeOver` (optional, false), `audio` (optional, see ``shareAudio()``).
    func shareRequest() throws(ProtocolError) -> ShareRequest {
        let codec = try choice("codec", of: ShareRequest.Codec.allCases.map(\.rawValue))
        let label = try optionalString("label").map { String($0.prefix(ShareRequest.maximumLabelLength)) }
        return ShareRequest(codec: ShareRequest.Codec(rawValue: codec)!, width: try integer("width", in: 16...7680),
                            height: try integer("height", in: 16...4320), label: label ?? "",
                            takeOver: try boolean("takeOver") ?? false, audio: try shareAudio())
    }

    /// `share.audio`: absent or null for none, else `{codec: "opus", channels: 1 or 2, rate: 48000}`
    /// (Opus decodes at 48 kHz whatever the microphone's rate); errors name `share.audio.FIELD`.
    private func shareAudio() throws(ProtocolError) -> ShareRequest.Audio? {
        guard let value = fields["audio"], value != .null else { return nil }
        guard case .object(let entries) = value else {
            throw invalidArgument("audio", "an object {\"codec\": \"opus\", \"channels\": 1 or 2, \"rate\": 48000} or null", got: value)
        }
        let audio = CommandFields(type: "\(type).audio", fields: entries)
        _ = try audio.choice("codec", of: ["opus"])
        return ShareRequest.Audio(channels: try audio.integer("channels", in: 1...2), rate: try audio.integer("rate", in: 48_000...48_000))
    }
}
