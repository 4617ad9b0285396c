#include "app/viewer/window_video.h"

#include <glad/gl.h>

#include "render/gl_check.h"
#include "sim/core/format_numbers.h"

namespace plab::app {

WindowVideo::WindowVideo(const WindowVideoSettings& s, double sim_time)
    : settings_(s),
      target_(s.width, s.height),
      encoder_(s.path, {s.width, s.height, s.fps}),
      next_time_(sim_time),
      frame_seconds_(1.0 / (s.fps * s.slowmo)) {}

void WindowVideo::capture(render::ScenePass& scene, const render::OrbitCamera& camera,
                          const render::SceneLayers& layers, double sim_time) {
    // A thousandth of a frame early, so sums of dt a rounding below a frame's time count.
    const double slack = 1e-3 * frame_seconds_;
    if (done() || sim_time + slack < next_time_) return;
    target_.bind();
    render::ScenePass::clear(settings_.width, settings_.height);
    scene.draw(camera, {0, 0, settings_.width, settings_.height}, layers);
    const std::vector<std::uint8_t> pixels = target_.read_pixels();
    while (!done() && sim_time + slack >= next_time_) {
        encoder_.push(pixels);
        ++frames_;
        next_time_ += frame_seconds_;
    }
}

std::string WindowVideo::finish() {
    encoder_.finish();
    return settings_.path +
           sim::format_numbers(" (%.0f frames, %.1f s at ", double(frames_),
                               double(frames_) / settings_.fps) +
           std::to_string(settings_.fps) + " fps, " + encoder_.encoder_name() +
           (encoder_.note().empty() ? "" : "; " + encoder_.note()) + ")";
}

bool WindowVideo::done() const {
    return settings_.max_frames > 0 && frames_ >= settings_.max_frames;
}

std::string WindowVideo::progress() const {
    std::string of = settings_.max_frames > 0 ? " of " + std::to_string(settings_.max_frames) : "";
    return "recording " + settings_.path + ": " + std::to_string(frames_) + of +
           sim::format_numbers(" frames (%.1f s), encoder waits %.0f ms",
                               double(frames_) / settings_.fps, encoder_.waited_ms());
}

}  // namespace plab::app
