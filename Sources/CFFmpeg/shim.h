// Re-exports the FFmpeg macros Swift cannot import, as CFFmpeg_-prefixed constants and functions.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>

/// `AVERROR(e)`: the negative FFmpeg error code for a POSIX errno value.
static inline int CFFmpeg_AVERROR(int posixError) { return AVERROR(posixError); }

/// `AVERROR_EOF`: end of stream.
static inline int CFFmpeg_AVERROR_EOF(void) { return AVERROR_EOF; }

/// `AVERROR_INVALIDDATA`: corrupt or unparsable input.
static inline int CFFmpeg_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }

/// `AVERROR_DECODER_NOT_FOUND`: no decoder for the stream's codec.
static inline int CFFmpeg_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }

/// `AV_NOPTS_VALUE`: "no timestamp".
static inline int64_t CFFmpeg_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }

/// `AV_TIME_BASE_Q`: the time base of `AVFormatContext.duration` and `av_seek_frame(…, -1, …)`.
static inline AVRational CFFmpeg_AV_TIME_BASE_Q(void) { return AV_TIME_BASE_Q; }

/// `AV_CODEC_FLAG_GLOBAL_HEADER`: extradata in the container header (mp4 wants it).
static inline int CFFmpeg_AV_CODEC_FLAG_GLOBAL_HEADER(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
/// `AV_CODEC_FLAG_LOW_DELAY`: a decoder gives each picture out as soon as it has it.
static inline int CFFmpeg_AV_CODEC_FLAG_LOW_DELAY(void) { return AV_CODEC_FLAG_LOW_DELAY; }

/// `av_log` is variadic: this logs a preformatted message.
static inline void CFFmpeg_av_log(void *context, int level, const char *message) {
    av_log(context, level, "%s", message);
}

#endif
