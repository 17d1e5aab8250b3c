import Foundation

/// What a source's comments are filed under: for a file, its content's identity — its size and
/// an FNV-1a hash of its first and last MiB — so that two files with one name do not share
/// comments while a copy (or a file moved, or touched) keeps them; for a source that is no file
/// (a camera, a stream, the test pattern), a hash of its name. 16 hexadecimal digits, with `f`
/// or `n` in front (file, name).
enum SourceKey {
    /// How much of each end of a file the key reads.
    static let sample = 1 << 20

    /// The key of the file at `path`, or nil when it cannot be read.
    static func ofFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        var hash = FNV1a()
        withUnsafeBytes(of: UInt64(size).littleEndian) { hash.add($0) }
        let parts = size <= 2 * sample ? [(offset: 0, count: size)] : [(offset: 0, count: sample), (offset: size - sample, count: sample)]
        var buffer = [UInt8](repeating: 0, count: parts[0].count)
        for part in parts {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, part.count, off_t(part.offset)) }
            guard read == part.count else { return nil }
            buffer.withUnsafeBytes { hash.add($0) }
        }
        return "f" + hash.hex
    }

    /// The key of a source that is no file, known by `name`.
    static func ofName(_ name: String) -> String {
        var hash = FNV1a()
        var name = name
        name.withUTF8 { hash.add(UnsafeRawBufferPointer($0)) }
        return "n" + hash.hex
    }

    /// 64-bit FNV-1a.
    private struct FNV1a {
        private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }

        var hex: String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}
