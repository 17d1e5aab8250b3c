/// The 32-byte header in front of every JPEG the server sends as a binary message.
///
/// All fields are little-endian:
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | `FCF1` (ASCII) |
/// | 4–5 | header length, u16: 32 |
/// | 6–7 | flags, u16 (bit 0: ``Flags/stateChanged``) |
/// | 8–15 | frame sequence, u64 |
/// | 16–23 | presentation time, i64 µs |
/// | 24–31 | server send time, i64 µs since the Unix epoch |
///
/// The JPEG follows at byte 32 and runs to the end of the message.
public struct FrameHeader: Sendable, Equatable {
    public static let size = 32
    public static let magic: [UInt8] = Array("FCF1".utf8)

    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt16

        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// The first frame after a state change such as a seek or a filter change.
        public static let stateChanged = Flags(rawValue: 1)
    }

    public var flags: Flags
    /// Increases with every frame; `frameAck` names frames by it.
    public var sequence: UInt64
    /// The frame's time in the source, µs.
    public var presentationTime: Int64
    /// When the server sent the frame, µs since the Unix epoch.
    public var sendTime: Int64

    public init(flags: Flags, sequence: UInt64, presentationTime: Int64, sendTime: Int64) {
        self.flags = flags
        self.sequence = sequence
        self.presentationTime = presentationTime
        self.sendTime = sendTime
    }

    /// Writes the 32 bytes at `destination` (must have room), little-endian.
    public func write(to destination: UnsafeMutableRawPointer) {
        write(to: destination, magic: Self.magic, length: Self.size)
    }

    /// The magic of a padding message (a padded probe's, which clients skip): this header, zeros
    /// in its fields, then padding.
    public static let paddingMagic: [UInt8] = Array("FCP1".utf8)

    /// The magic of a sound message (to clients that asked for sound: `watch {audio: true}`):
    /// this header — bit 0 of its flags marking the first packet after a restart (a seek, a new
    /// source), its time the packet's first sample's — then one Opus packet.
    public static let audioMagic: [UInt8] = Array("FCA1".utf8)

    /// Writes the 32 bytes with another `magic` and header `length` (a longer header's first part,
    /// or a padding message's header).
    public func write(to destination: UnsafeMutableRawPointer, magic: [UInt8], length: Int) {
        for (index, byte) in magic.enumerated() {
            destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
        }
        destination.storeBytes(of: UInt16(length).littleEndian, toByteOffset: 4, as: UInt16.self)
        destination.storeBytes(of: flags.rawValue.littleEndian, toByteOffset: 6, as: UInt16.self)
        destination.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
        destination.storeBytes(of: presentationTime.littleEndian, toByteOffset: 16, as: Int64.self)
        destination.storeBytes(of: sendTime.littleEndian, toByteOffset: 24, as: Int64.self)
    }

    /// Parses a header from the start of `bytes`; nil when too short, wrong magic or length.
    public init?(parsing bytes: UnsafeRawBufferPointer) {
        self.init(parsing: bytes, magic: Self.magic, length: Self.size)
    }

    /// Parses the first 32 bytes of a header with another `magic` and `length`.
    init?(parsing bytes: UnsafeRawBufferPointer, magic: [UInt8], length: Int) {
        guard bytes.count >= Self.size, bytes.prefix(magic.count).elementsEqual(magic),
              UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self)) == length
        else { return nil }
        flags = Flags(rawValue: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 6, as: UInt16.self)))
        sequence = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        presentationTime = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self))
        sendTime = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: Int64.self))
    }
}
