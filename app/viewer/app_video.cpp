// The window's movie: --video and the panel's Record video (app/viewer/window_video.h).
#include <glad/gl.h>

#include <cstdio>
#include <exception>
#include <string>

#include "app/viewer/app.h"
#include "render/gl_check.h"

namespace plab::app {

void App::start_video(const WindowVideoSettings& settings) {
    video_ = std::make_unique<WindowVideo>(settings, session_.time());
    ui_.video_recording = true;
    ui_.video_status = video_->progress();
}

void App::sync_video(const Requests& r) {
    if (!r.toggle_video) return;
    if (video_) {
        finish_video();
        return;
    }
    try {
        WindowVideoSettings v;
        v.path = ui_.video_path;
        v.width = config_.video.width;
        v.height = config_.video.height;
        v.fps = config_.video.fps;
        v.slowmo = config_.video.slowmo;
        start_video(v);
        run_video_ = false;
    } catch (const std::exception& e) {
        ui_.video_status.clear();
        ui_.say(std::string("Recording video failed: ") + e.what(), true);
    }
}

void App::video_tick() {
    if (!video_) return;
    try {
        const render::SceneLayers layers = Frame::layers(session_, frame_view());
        video_->capture(frame_.scene(), frame_.camera(), layers, session_.time());
        ui_.video_status = video_->progress();
    } catch (...) {
        PLAB_GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        finish_video();
        throw;
    }
    // The panel draws into the window next.
    PLAB_GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    if (video_->done() && !run_video_) finish_video();
}

// Every way out of a recording ends here: the trailer is written, so the movie plays.
void App::finish_video() noexcept {
    if (!video_) return;
    try {
        const std::string what = video_->finish();
        ui_.video_status = "wrote " + what;
        std::printf("particle-lab: wrote video %s\n", what.c_str());
        std::fflush(stdout);
    } catch (const std::exception& e) {
        ui_.video_status.clear();
        ui_.say(std::string("Video failed: ") + e.what(), true);
        std::fprintf(stderr, "particle-lab: error: video: %s\n", e.what());
    }
    video_.reset();
    ui_.video_recording = false;
}

}  // namespace plab::app
