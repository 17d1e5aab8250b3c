extension CommandFields {
    /// `share` `start`'s fields: `codec`, `width` and `height` (16…7680 × 16…4320; the server's
    /// limits are checked later), `label` (optional, cut to ``ShareRequest/maximumLabelLength``),
    /// `takeOver` (optional, false).
    func shareRequest() throws(ProtocolError) -> ShareRequest {
        let codec = try choice("codec", of: ShareRequest.Codec.allCases.map(\.rawValue))
        let label = try optionalString("label").map { String($0.prefix(ShareRequest.maximumLabelLength)) }
        return ShareRequest(codec: ShareRequest.Codec(rawValue: codec)!, width: try integer("width", in: 16...7680),
                            height: try integer("height", in: 16...4320), label: label ?? "",
                            takeOver: try boolean("takeOver") ?? false)
    }
}
