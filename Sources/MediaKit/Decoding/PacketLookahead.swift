import CFFmpeg

/// The video packets a ``Decoder`` read past the picture it decoded while looking for the sound
/// ahead of it (see ``SoundReadAhead``): a FIFO of `capacity` packets, allocated once,
/// filled and emptied by moving references (no copy, no allocation in the steady state).
///
/// Decode thread only (like its decoder).
final class PacketLookahead {
    private let packets: [UnsafeMutablePointer<AVPacket>]
    private var head = 0
    private(set) var count = 0
    /// The read ahead met the input's end: once what is held is used, the input ends.
    var reachedEnd = false

    init(capacity: Int) {
        packets = (0..<max(1, capacity)).map { _ in av_packet_alloc() }
    }

    deinit {
        for packet in packets {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
    }

    var isFull: Bool { count == packets.count }

    /// Moves `packet` (a reference, left blank) to the back. The caller checks `isFull` first.
    func push(movingFrom packet: UnsafeMutablePointer<AVPacket>) {
        precondition(!isFull, "PacketLookahead is full")
        av_packet_move_ref(packets[(head + count) % packets.count], packet)
        count += 1
    }

    /// Moves the oldest packet into `packet` (blank); false when none is held.
    func pop(into packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard count > 0 else { return false }
        av_packet_move_ref(packet, packets[head])
        head = (head + 1) % packets.count
        count -= 1
        return true
    }

    /// Drops what is held (a seek: the input reads from elsewhere).
    func clear() {
        for offset in 0..<count { av_packet_unref(packets[(head + offset) % packets.count]) }
        head = 0
        count = 0
        reachedEnd = false
    }
}
