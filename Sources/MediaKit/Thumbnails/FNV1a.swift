/// The 64-bit FNV-1a hash: a short, stable name for a string (a path, a file's identity) in a
/// cache folder. Not for secrets: anyone can make two strings collide on purpose.
public enum FNV1a {
    /// The hash of `text`'s UTF-8 bytes as 16 lowercase hex digits.
    public static func hex(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
