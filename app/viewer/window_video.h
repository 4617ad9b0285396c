#pragma once
// A movie of the window's scene: each video frame is the scene drawn again into an offscreen
// target of a fixed size (without the panel) when the simulated time passes the frame's time,
// so the movie plays at the simulation's speed (or `slowmo` times slower) whatever the
// window's frame rate; a display frame that passes several frame times repeats the picture.
// Encoding runs on the encoder's thread (app/lab/video_encoder.h).
#include <memory>
#include <string>

#include "app/lab/video_encoder.h"
#include "render/offscreen_target.h"
#include "render/orbit_camera.h"
#include "render/scene_pass.h"

namespace plab::app {

struct WindowVideoSettings {
    std::string path;
    int width = 1280, height = 720;  // pixels of the movie
    int fps = 30;
    double slowmo = 1;    // the movie runs this many times slower than the simulation
    long max_frames = 0;  // stop (done()) after this many frames; 0: until stopped
};

class WindowVideo {
  public:
    // Opens the movie; `sim_time` (s) is its first frame's time. Throws plab::Error naming
    // the path or the missing encoder.
    WindowVideo(const WindowVideoSettings& settings, double sim_time);

    // Adds the frames whose time `sim_time` has reached, drawn by `scene` as `camera` sees it.
    // Leaves the offscreen target bound. Throws plab::Error when the encoder failed.
    void capture(render::ScenePass& scene, const render::OrbitCamera& camera,
                 const render::SceneLayers& layers, double sim_time);
    // Finishes the movie (trailer, rename); returns what was written, for a message.
    std::string finish();

    bool done() const;
    // "recording videos/run.mp4: 120 frames (4.0 s)" for the panel.
    std::string progress() const;
    const std::string& path() const { return settings_.path; }

  private:
    WindowVideoSettings settings_;
    render::OffscreenTarget target_;
    VideoEncoder encoder_;
    double next_time_;      // s, simulated time of the next frame
    double frame_seconds_;  // s of simulated time a frame covers
    long frames_ = 0;
};

}  // namespace plab::app
