#pragma once
// One frame of a run, as every front end draws it: the window (app/viewer), `bench --render`
// and the video recorder (app/lab). It owns the scene pass and the camera and decides, in one
// place, the particle renderer a run's variant asks for, the camera's framing of the domain (and
// a scene file's own camera), the colour style and the layers drawn besides the particles. The
// front ends keep only what is theirs: which framebuffer is bound, timers, fallbacks, the panel.
#include <string>

#include "render/orbit_camera.h"
#include "render/particle_feed.h"
#include "render/scene_pass.h"
#include "sim/engine/simulator.h"
#include "sim/run/run.h"

namespace plab::app {

// What a front end shows of the run besides its state.
struct FrameView {
    render::ColorChoice color;
    bool show_box = true;
    bool show_collider = true;
    bool show_bodies = true;  // the scene's geometry, as outline edges
    // The data look (colour maps) or the material look (liquid, grains), which the CUDA
    // renderer draws; the GL sprites draw the data look (ScenePass::look_fallback says so).
    render::Look look = render::Look::Data;
};

class Frame {
  public:
    Frame() = default;  // needs a current GL 4.5 context

    render::ScenePass& scene() { return scene_; }
    render::OrbitCamera& camera() { return camera_; }
    const render::OrbitCamera& camera() const { return camera_; }

    // The renderer the run's `renderer` variant resolved to: the CUDA splatter unless
    // `unavailable` says why it cannot draw here (then the GL sprites). Returns that reason, ""
    // when the variant is drawn as asked (or asks for GL). Choose before the feed: the CUDA
    // renderer's interop feed goes to its own device buffers.
    std::string choose_renderer(const sim::Run& run, const std::string& unavailable);
    // The same for a headless driver (bench --render, video): the CUDA splatter asked for where
    // it cannot draw is refused (plab::Error "--renderer cuda: <why>") instead of replaced.
    void require_renderer(const sim::Run& run);
    bool cuda_renderer() const { return scene_.renderer() == render::ParticleRendererKind::Cuda; }

    // The run's opening view at `aspect` (render/scene_camera.h): its domain framed, or the
    // scene file's camera backed off until the whole domain shows.
    void frame_camera(const sim::Run& run, float aspect);

    // The colour style and layers of the run with `view`.
    static sim::RenderStyle style(const sim::Run& run, const FrameView& view);
    static render::SceneLayers layers(const sim::Run& run, const FrameView& view);

    // Writes the run's particles into the renderer's buffers along `path` (grown first when
    // the run has more particles than they hold). Throws plab::Error as the feed does.
    render::FeedTiming feed(sim::Run& run, const FrameView& view, render::FeedPath path);
    // Draws the last feed, the box and the collider into `viewport` of the bound framebuffer.
    void draw(const sim::Run& run, const FrameView& view, const render::Viewport& viewport);

  private:
    render::ScenePass scene_;
    render::OrbitCamera camera_;
};

}  // namespace plab::app
