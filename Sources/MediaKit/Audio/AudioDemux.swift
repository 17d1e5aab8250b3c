import CFFmpeg

/// The audio stream of a ``Decoder``'s input, as the decode thread passes it on: its packets go,
/// unread, to the ``AudioPacketQueue`` a player routes them to, while somebody listens.
///
/// Decode thread only. The queue is told to restart whenever what follows does not continue what
/// it had: a new queue (a new source), a seek, and listening again after nobody did.
final class AudioDemux {
    let streamIndex: Int32
    let parameters: AudioStreamParameters
    private var queue: AudioPacketQueue?
    /// Whether the queue has been told where the stream stands (false: the next packet restarts it).
    private var started = false
    /// After a seek: packets ending before this (seconds) are dropped here.
    private var dropBefore: Double?
    /// Where the packets passed on so far end (seconds, the pictures' clock); -∞ before any since
    /// the last restart. The decoder reads ahead of its pictures until this is far enough ahead.
    private(set) var demuxedUntil = -Double.infinity

    /// Whether somebody listens (packets are passed on).
    var isListened: Bool { queue?.isWanted ?? false }

    /// The first audio stream of `format` (the one FFmpeg finds best beside the video stream
    /// `videoIndex`) with a decoder; nil when there is none. `offset`: the video stream's start.
    init?(format: UnsafeMutablePointer<AVFormatContext>, videoIndex: Int32, offset: Double) {
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        guard index >= 0, let stream = format.pointee.streams[Int(index)],
              avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) != nil,
              stream.pointee.codecpar.pointee.ch_layout.nb_channels > 0, stream.pointee.codecpar.pointee.sample_rate > 0,
              let parameters = AudioStreamParameters(stream: stream, offset: offset) else { return nil }
        streamIndex = index
        self.parameters = parameters
    }

    /// Passes this stream on to `queue` from now on (nil: to nobody).
    func route(to queue: AudioPacketQueue?) {
        self.queue = queue
        started = false
    }

    /// Takes `packet` when it is of this stream (true: the caller skips it), passing it on while
    /// somebody listens.
    func take(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard packet.pointee.stream_index == streamIndex else { return false }
        guard let queue, queue.isWanted else {
            started = false
            demuxedUntil = -.infinity
            return true
        }
        if let dropBefore {
            let end = packet.pointee.pts &+ packet.pointee.duration
            if packet.pointee.pts != CFFmpeg_AV_NOPTS_VALUE(), parameters.seconds(end) <= dropBefore { return true }
        }
        if !started {
            queue.restart(parameters, at: dropBefore)
            started = true
        }
        dropBefore = nil
        if packet.pointee.pts != CFFmpeg_AV_NOPTS_VALUE() {
            demuxedUntil = parameters.seconds(packet.pointee.pts &+ packet.pointee.duration)
        }
        queue.put(movingFrom: packet)
        return true
    }

    /// A seek to `seconds`: the sound starts over there, and what the audio thread still holds
    /// of the old position is dropped at once.
    func seeking(to seconds: Double) {
        dropBefore = seconds
        started = false
        demuxedUntil = -.infinity
        guard let queue, queue.isWanted else { return }
        queue.restart(parameters, at: seconds)
        started = true
    }

    /// The input ended: the audio thread drains what it holds.
    func ended() {
        guard started else { return }
        queue?.end()
        started = false
    }
}
