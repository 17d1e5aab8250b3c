/// Reading H.264 Annex B byte streams (NAL units behind `00 00 01` or `00 00 00 01` start codes).
enum AnnexB {
    /// The sequence and picture parameter sets (NAL types 7 and 8) of `stream`, each behind a
    /// four-byte start code, in their order: the extradata a muxer wants (mp4's avcC and flv's
    /// sequence header are made from it). Empty when `stream` has neither.
    static func parameterSets(in stream: UnsafeRawBufferPointer) -> [UInt8] {
        var sets: [UInt8] = []
        for unit in nalUnits(in: stream) where unit.first.map({ [7, 8].contains($0 & 0x1F) }) ?? false {
            sets += [0, 0, 0, 1]
            sets += unit
        }
        return sets
    }

    /// The NAL units of `stream`, without their start codes (nor the zero bytes that trail them).
    static func nalUnits(in stream: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer.SubSequence] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append((index, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.indices.map { position in
            var end = position + 1 < starts.count ? starts[position + 1].code : stream.count
            while end > starts[position].payload, stream[end - 1] == 0 { end -= 1 }
            return stream[starts[position].payload..<end]
        }
    }
}
