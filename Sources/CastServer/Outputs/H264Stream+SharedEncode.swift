import MediaKit

/// A rendition's encode is also the publish stream's (`--publish-rendition`) and filtered
/// recordings' (`--record-rendition`): they attach to it instead of encoding the same frames again.
extension H264Stream: SharedEncode {
    var name: String { rendition.id }
    var width: Int { rendition.width }
    var height: Int { rendition.height }

    func attach(_ sink: @escaping @Sendable (EncodedAccessUnit) -> Void) -> Int { sharers.add(sink) }

    func detach(_ token: Int) { sharers.remove(token) }
}
