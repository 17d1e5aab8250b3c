import CFFmpeg

/// The packets of a ``Decoder``'s input, read so that its sound leaves ahead of its pictures.
///
/// While somebody listens to the sound, the decoder reads on past each picture it decodes until
/// the sound is demuxed ``soundLead`` ahead of it (passed on at once to the ``AudioDemux``), and
/// the video packets read on the way wait here (a ``PacketLookahead``, at most
/// ``lookaheadPackets``) for the next pictures. The pictures are paced by the player, the sound
/// is not: so the sound leaves the server ahead of its pictures. A live input is read ahead as
/// it comes: its picture waits for its sound (a stream's muxer gathers a tenth of a second of
/// sound or more into a packet, after the pictures of that time), at most until the pictures
/// read on reach ``maximumLiveWait`` past it.
///
/// Decode thread only (like its decoder, which owns `format` and outlives it).
final class SoundReadAhead {
    /// How far the sound of a file is demuxed ahead of the picture decoded last (s): a packet must
    /// reach the page, be decoded and pass the browser's output latency (~40 ms) before its
    /// picture is drawn, and an Opus packet is complete only ~50 ms after its start is demuxed.
    static let soundLead = 0.15
    /// At most this many video packets are held while reading ahead (2 s at 30 fps): a file
    /// whose sound is interleaved more coarsely gets less lead, never unbounded memory.
    static let lookaheadPackets = 64
    /// How far a live input's pictures are read on while waiting for a picture's sound: a sound
    /// that lags more plays out of sync rather than the pictures late.
    static let maximumLiveWait = 0.5

    private let format: UnsafeMutablePointer<AVFormatContext>
    private let audio: AudioDemux?
    private let videoIndex: Int32
    /// Whether the input is live (cannot seek): its read ahead is bounded by ``maximumLiveWait``.
    private let isLive: Bool
    /// The video stream's first timestamp and its seconds a tick: a packet's time from its start.
    private let startTimestamp: Int64
    private let timeBase: Double
    /// Video packets read past the last picture while reading its sound ahead.
    private let lookahead = PacketLookahead(capacity: SoundReadAhead.lookaheadPackets)

    init(format: UnsafeMutablePointer<AVFormatContext>, audio: AudioDemux?, videoIndex: Int32, isLive: Bool,
         startTimestamp: Int64, timeBase: Double) {
        self.format = format
        self.audio = audio
        self.videoIndex = videoIndex
        self.isLive = isLive
        self.startTimestamp = startTimestamp
        self.timeBase = timeBase
    }

    /// The next packet of the input into `packet` (blank): the oldest one read ahead, else a new
    /// read. Returns av_read_frame's result (the end once what was read ahead is used up).
    func nextPacket(into packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        if lookahead.pop(into: packet) { return 0 }
        if lookahead.reachedEnd {
            lookahead.reachedEnd = false
            return CFFmpeg_AVERROR_EOF()
        }
        return av_read_frame(format, packet)
    }

    /// While somebody listens, reads on past the picture at `pictureSeconds` until its sound is
    /// demuxed ``soundLead`` ahead of it, using `packet` (left blank) to read. Nothing when the
    /// decoder is `draining`. A read error ends the read ahead and is met again by the decoder's
    /// next read.
    func readAhead(of pictureSeconds: Double, using packet: UnsafeMutablePointer<AVPacket>, draining: Bool) {
        guard let audio, audio.isListened else { return }
        while audio.demuxedUntil < pictureSeconds + Self.soundLead, !lookahead.isFull, !lookahead.reachedEnd, !draining {
            let read = av_read_frame(format, packet)
            if read == CFFmpeg_AVERROR_EOF() { lookahead.reachedEnd = true }
            guard read >= 0 else { return }
            defer { av_packet_unref(packet) }
            if audio.take(packet) { continue }
            guard packet.pointee.stream_index == videoIndex else { continue }
            let pts = packet.pointee.pts
            lookahead.push(movingFrom: packet)
            let packetSeconds = Double(pts &- startTimestamp) * timeBase
            if isLive, pts != CFFmpeg_AV_NOPTS_VALUE(), packetSeconds > pictureSeconds + Self.maximumLiveWait { return }
        }
    }

    /// A seek: what was read ahead is from elsewhere.
    func clear() {
        lookahead.clear()
    }
}
