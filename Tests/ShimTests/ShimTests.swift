import CFFmpeg
import CTurboJPEG
import CWebSockets
import Glibc
import Testing

/// The shim headers re-export C macros; these check the values against their definitions.
@Suite struct ShimTests {
    @Test func ffmpegErrorCodes() {
        #expect(CFFmpeg_AVERROR(EAGAIN) == -EAGAIN)
        // FFERRTAG('E','O','F',' ') = -MKTAG('E','O','F',' ')
        let eof = Int32(UInt8(ascii: "E")) | Int32(UInt8(ascii: "O")) << 8 | Int32(UInt8(ascii: "F")) << 16
            | Int32(UInt8(ascii: " ")) << 24
        #expect(CFFmpeg_AVERROR_EOF() == -eof)
        #expect(CFFmpeg_AV_NOPTS_VALUE() == Int64.min)
        let timeBase = CFFmpeg_AV_TIME_BASE_Q()
        #expect(timeBase.num == 1 && timeBase.den == AV_TIME_BASE)
        var message = [CChar](repeating: 0, count: 64)
        #expect(av_strerror(CFFmpeg_AVERROR_INVALIDDATA(), &message, message.count) == 0)
        #expect(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .contains("Invalid data"))
    }

    @Test func turboJPEGPadding() {
        #expect(CTurboJPEG_TJPAD(1) == 4)
        #expect(CTurboJPEG_TJPAD(640) == 640)
        #expect(CTurboJPEG_TJSCALED(1920, tjscalingfactor(num: 1, denom: 2)) == 960)
    }

    @Test func webSocketsHeadroom() {
        // LWS_PRE is the frame-header room lws needs before each payload: at least the 14 bytes of
        // the largest WebSocket header, and word-aligned.
        let pre = CWebSockets_LWS_PRE()
        #expect(pre >= 14)
        #expect(pre % MemoryLayout<UnsafeRawPointer>.size == 0)
        #expect(String(cString: lws_get_library_version()).hasPrefix("4."))
    }
}
