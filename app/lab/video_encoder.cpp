#include "app/lab/video_encoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "app/lab/output_file.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

std::string av_reason(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace

std::string video_unavailable_reason() { return {}; }

struct VideoEncoder::Impl {
    std::string path, temporary;
    VideoSettings settings;
    int width = 0, height = 0;  // encoded: even
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    SwsContext* scale = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    std::string encoder, note;
    bool header_written = false, finished = false;

    std::thread worker;
    mutable std::mutex mutex;
    std::condition_variable has_frame, has_room;
    std::deque<std::vector<std::uint8_t>> queue;
    bool closing = false;
    std::string error;  // the worker's failure
    long pushed = 0, written = 0;
    double waited_ms = 0;

    ~Impl() {
        if (worker.joinable()) {
            {
                std::lock_guard lock(mutex);
                closing = true;
            }
            has_frame.notify_all();
            worker.join();
        }
        sws_freeContext(scale);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&codec);
        if (format) {
            if (format->pb) avio_closep(&format->pb);
            avformat_free_context(format);
        }
        if (!temporary.empty() && !finished) ::unlink(temporary.c_str());
    }

    [[noreturn]] void fail(const std::string& what, int code) const {
        throw Error("video '" + path + "': " + what + ": " + av_reason(code));
    }

    // Sends `f` (nullptr: flush) and writes every packet the encoder has ready.
    void encode(AVFrame* f) {
        int rc = avcodec_send_frame(codec, f);
        if (rc < 0) fail("cannot encode a frame", rc);
        while ((rc = avcodec_receive_packet(codec, packet)) == 0) {
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            rc = av_interleaved_write_frame(format, packet);  // takes the packet's data
            if (rc < 0) fail("cannot write to '" + temporary + "'", rc);
        }
        if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF) fail("the encoder failed", rc);
    }

    void convert_and_encode(const std::vector<std::uint8_t>& rgba) {
        const int rc = av_frame_make_writable(frame);
        if (rc < 0) fail("cannot prepare a frame", rc);
        const std::uint8_t* src[1] = {rgba.data()};
        const int stride[1] = {settings.width * 4};
        // An odd last row or column is left out (4:2:0 needs even sizes).
        sws_scale(scale, src, stride, 0, height, frame->data, frame->linesize);
        frame->pts = written;
        encode(frame);
    }

    void run() {
        for (;;) {
            std::vector<std::uint8_t> next;
            {
                std::unique_lock lock(mutex);
                has_frame.wait(lock, [&] { return closing || !queue.empty(); });
                if (queue.empty()) return;  // closing, and everything encoded
                next = std::move(queue.front());
                queue.pop_front();
            }
            has_room.notify_one();
            try {
                convert_and_encode(next);
                std::lock_guard lock(mutex);
                ++written;
            } catch (const std::exception& e) {
                std::lock_guard lock(mutex);
                error = e.what();
                queue.clear();
                closing = true;
                has_room.notify_all();
                return;
            }
        }
    }

    void open_codec() {
        const AVCodec* c = avcodec_find_encoder_by_name("libx264");
        if (!c) {
            c = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
            note = "libx264 is not in this libavcodec: MPEG-4 part 2 instead of H.264";
        }
        if (!c)
            throw Error("video '" + path +
                        "': this libavcodec has no H.264 (libx264) or MPEG-4 encoder");
        encoder = c->name;
        codec = avcodec_alloc_context3(c);
        PLAB_REQUIRE(codec, "cannot allocate the video encoder");
        codec->width = width;
        codec->height = height;
        codec->time_base = {1, settings.fps};
        codec->framerate = {settings.fps, 1};
        codec->pix_fmt = AV_PIX_FMT_YUV420P;
        codec->gop_size = 2 * settings.fps;
        if (encoder == "libx264") {
            av_opt_set(codec->priv_data, "preset", "veryfast", 0);
            av_opt_set(codec->priv_data, "crf", "20", 0);
        } else {
            codec->bit_rate = std::int64_t{width} * height * settings.fps / 4;  // ~0.25 bit/px
        }
        if (format->oformat->flags & AVFMT_GLOBALHEADER)
            codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        const int rc = avcodec_open2(codec, c, nullptr);
        if (rc < 0) fail("cannot open the " + encoder + " encoder", rc);
    }
};

VideoEncoder::VideoEncoder(const std::string& path, const VideoSettings& s)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.path = path;
    m.settings = s;
    PLAB_REQUIRE(s.width >= 16 && s.height >= 16 && s.width <= 16384 && s.height <= 16384,
                 "video '" + path + "': frames must be 16 to 16384 pixels wide and high");
    PLAB_REQUIRE(s.fps >= 1 && s.fps <= 240, "video '" + path + "': fps must be in [1, 240]");
    PLAB_REQUIRE(s.queue_frames >= 1, "video queue must hold a frame");
    av_log_set_level(AV_LOG_ERROR);  // the encoder's statistics are not the app's to print
    m.width = s.width & ~1;
    m.height = s.height & ~1;
    require_writable(path);  // the folder made, a folder, pipe or read-only file refused
    // The movie is renamed onto the file a link names, never over the link; a device (e.g.
    // /dev/null) is not replaced by a file: the movie is written in a folder, then renamed.
    const std::filesystem::path p = sim::output_target(path);
    struct stat st {};
    PLAB_REQUIRE(::stat(p.c_str(), &st) != 0 || S_ISREG(st.st_mode),
                 "video '" + path + "': it is not a regular file (a device); give a file name");
    m.path = p.string();
    m.temporary = (p.parent_path() /
                   ("." + p.filename().string() + "." + std::to_string(::getpid()) + ".video.part"))
                      .string();
    int rc = avformat_alloc_output_context2(&m.format, nullptr, "mp4", m.temporary.c_str());
    if (rc < 0 || !m.format) m.fail("cannot set up an MP4 file", rc);
    m.open_codec();
    m.stream = avformat_new_stream(m.format, nullptr);
    PLAB_REQUIRE(m.stream, "cannot add a video stream");
    m.stream->time_base = m.codec->time_base;
    rc = avcodec_parameters_from_context(m.stream->codecpar, m.codec);
    if (rc < 0) m.fail("cannot describe the stream", rc);
    rc = avio_open(&m.format->pb, m.temporary.c_str(), AVIO_FLAG_WRITE);
    if (rc < 0) m.fail("cannot create '" + m.temporary + "'", rc);
    rc = avformat_write_header(m.format, nullptr);
    if (rc < 0) m.fail("cannot write the MP4 header", rc);
    m.header_written = true;
    m.scale = sws_getContext(m.width, m.height, AV_PIX_FMT_RGBA, m.width, m.height,
                             AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
    PLAB_REQUIRE(m.scale, "cannot set up the RGBA to YUV conversion");
    m.frame = av_frame_alloc();
    m.packet = av_packet_alloc();
    PLAB_REQUIRE(m.frame && m.packet, "cannot allocate video frames");
    m.frame->format = AV_PIX_FMT_YUV420P;
    m.frame->width = m.width;
    m.frame->height = m.height;
    rc = av_frame_get_buffer(m.frame, 0);
    if (rc < 0) m.fail("cannot allocate a frame", rc);
    m.worker = std::thread([&m] { m.run(); });
}

VideoEncoder::~VideoEncoder() {
    try {
        finish();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "particle-lab: %s\n", e.what());
    }
}

void VideoEncoder::push(std::span<const std::uint8_t> rgba) {
    push(std::vector<std::uint8_t>(rgba.begin(), rgba.end()));
}

void VideoEncoder::push(std::vector<std::uint8_t>&& rgba) {
    Impl& m = *impl_;
    const std::size_t size = std::size_t(m.settings.width) * m.settings.height * 4;
    PLAB_REQUIRE(rgba.size() == size, "video frame of " + std::to_string(rgba.size()) + " bytes, " +
                                          std::to_string(size) + " expected");
    PLAB_REQUIRE(!m.finished, "video '" + m.path + "' is already finished");
    std::unique_lock lock(m.mutex);
    if (m.queue.size() >= std::size_t(m.settings.queue_frames)) {
        const auto start = std::chrono::steady_clock::now();
        m.has_room.wait(lock, [&] {
            return m.closing || m.queue.size() < std::size_t(m.settings.queue_frames);
        });
        m.waited_ms +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
    }
    if (!m.error.empty()) throw Error(m.error);
    m.queue.push_back(std::move(rgba));
    ++m.pushed;
    lock.unlock();
    m.has_frame.notify_one();
}

void VideoEncoder::finish() {
    Impl& m = *impl_;
    if (m.finished) return;
    m.finished = true;  // whatever happens below, once
    {
        std::lock_guard lock(m.mutex);
        m.closing = true;
    }
    m.has_frame.notify_all();
    if (m.worker.joinable()) m.worker.join();
    if (!m.error.empty()) {
        ::unlink(m.temporary.c_str());
        throw Error(m.error);
    }
    try {
        m.encode(nullptr);  // the frames the encoder still holds
        const int rc = av_write_trailer(m.format);
        if (rc < 0) m.fail("cannot write the MP4 trailer", rc);
        const int closed = avio_closep(&m.format->pb);
        if (closed < 0) m.fail("cannot close '" + m.temporary + "'", closed);
    } catch (...) {
        ::unlink(m.temporary.c_str());
        throw;
    }
    if (std::rename(m.temporary.c_str(), m.path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(m.temporary.c_str());
        throw Error("cannot rename '" + m.temporary + "' to '" + m.path + "': " + why);
    }
}

long VideoEncoder::frames_pushed() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->pushed;
}
long VideoEncoder::frames_written() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->written;
}
double VideoEncoder::waited_ms() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->waited_ms;
}
const std::string& VideoEncoder::encoder_name() const { return impl_->encoder; }
const std::string& VideoEncoder::note() const { return impl_->note; }
const std::string& VideoEncoder::path() const { return impl_->path; }

}  // namespace plab::app
