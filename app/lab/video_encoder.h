#pragma once
// MP4 video of rendered frames (libavcodec/libavformat/libswscale): H.264 through libx264,
// or MPEG-4 part 2 when this libavcodec has no H.264 encoder (said in note()). Frames are
// converted and encoded on a thread of their own behind a bounded queue, so the render loop
// only copies a frame in and goes on; it waits only when the encoder falls a whole queue
// behind (counted in waited_ms()). The file is written under a temporary name and renamed
// into place by finish(), which writes the MP4 trailer: a run that stops early (Esc, SIGINT,
// an error) still leaves a playable movie of every frame pushed when finish() is called on
// its way out. A build without libav has no encoder: the constructor then throws saying so.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plab::app {

// Whether this build can write video ("" when it can, else why not).
std::string video_unavailable_reason();

struct VideoSettings {
    int width = 0, height = 0;  // pixels of the frames pushed; odd sizes lose their last row/column
    int fps = 30;               // frames per second of playback
    int queue_frames = 8;       // frames the queue holds before push() waits
};

class VideoEncoder {
  public:
    // Opens the encoder and the temporary file beside `path`. Throws plab::Error naming the
    // path for an unwritable file, or the encoder when none can be opened.
    VideoEncoder(const std::string& path, const VideoSettings& settings);
    ~VideoEncoder();  // finishes the movie if finish() was not called (errors are logged)
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    // Queues one frame: width × height RGBA bytes, row 0 the top. Throws plab::Error when the
    // encoder thread failed (its reason) or the size is wrong.
    void push(std::span<const std::uint8_t> rgba);
    // The same, taking the bytes without a copy.
    void push(std::vector<std::uint8_t>&& rgba);
    // Encodes what is queued, flushes the encoder, writes the trailer and renames the file
    // into place. Throws plab::Error on a failed write. Idempotent.
    void finish();

    long frames_pushed() const;
    long frames_written() const;
    double waited_ms() const;  // time push() spent waiting for room in the queue
    // Which encoder runs, and why when it is not H.264 ("" for libx264).
    const std::string& encoder_name() const;
    const std::string& note() const;
    const std::string& path() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace plab::app
