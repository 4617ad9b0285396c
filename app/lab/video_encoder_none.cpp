// The video encoder of a build without libavcodec/libavformat/libswscale: it says so.
#include <string>

#include "app/lab/video_encoder.h"
#include "sim/core/error.h"

namespace plab::app {

std::string video_unavailable_reason() {
    return "this build has no video encoder (libavcodec-dev, libavformat-dev and libswscale-dev "
           "were not found when it was configured)";
}

struct VideoEncoder::Impl {
    std::string empty;
};

VideoEncoder::VideoEncoder(const std::string& path, const VideoSettings&) {
    throw Error("cannot record '" + path + "': " + video_unavailable_reason());
}
VideoEncoder::~VideoEncoder() = default;
void VideoEncoder::push(std::span<const std::uint8_t>) {}
void VideoEncoder::push(std::vector<std::uint8_t>&&) {}
void VideoEncoder::finish() {}
long VideoEncoder::frames_pushed() const { return 0; }
long VideoEncoder::frames_written() const { return 0; }
double VideoEncoder::waited_ms() const { return 0; }
const std::string& VideoEncoder::encoder_name() const { return impl_->empty; }
const std::string& VideoEncoder::note() const { return impl_->empty; }
const std::string& VideoEncoder::path() const { return impl_->empty; }

}  // namespace plab::app
