/// `hello.uploads`: this server takes uploaded video files (`PUT /api/uploads/NAME`, from a
/// controlling client), up to `maxBytes` each. Absent when uploads are off (v1 addition).
public struct UploadOffer: Sendable, Equatable, Encodable {
    public let maxBytes: Int64

    public init(maxBytes: Int64) {
        self.maxBytes = maxBytes
    }
}
