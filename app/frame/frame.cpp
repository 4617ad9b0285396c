#include "app/frame/frame.h"

#include "render/material_view.h"
#include "render/scene_camera.h"
#include "render/splat_renderer.h"
#include "sim/core/error.h"

namespace plab::app {

std::string Frame::choose_renderer(const sim::Run& run, const std::string& unavailable) {
    const bool asked = run.simulator().effective_options().effective.renderer == sim::kRendererCuda;
    const bool cuda = asked && unavailable.empty();
    scene_.set_renderer(cuda ? render::ParticleRendererKind::Cuda
                             : render::ParticleRendererKind::Gl);
    return asked ? unavailable : std::string();
}

void Frame::require_renderer(const sim::Run& run) {
    if (run.simulator().effective_options().effective.renderer == sim::kRendererCuda) {
        const std::string why = render::splat_unavailable_reason(true);
        PLAB_REQUIRE(why.empty(), "--renderer cuda: " + why);
    }
    choose_renderer(run, "");
}

void Frame::frame_camera(const sim::Run& run, float aspect) {
    const auto& file = run.scene_file();
    camera_ = render::opening_camera(run.domain(), file ? file->camera : std::nullopt, aspect);
}

sim::RenderStyle Frame::style(const sim::Run& run, const FrameView& view) {
    return render::scene_style(run.params(), run.domain(), view.color);
}

render::SceneLayers Frame::layers(const sim::Run& run, const FrameView& view) {
    render::SceneLayers layers = render::scene_layers(run.params(), run.domain());
    layers.show_box = view.show_box;
    layers.show_collider = view.show_collider;
    layers.bodies = run.geometry();
    layers.show_bodies = view.show_bodies;
    if (run.scene_file()) layers.sources = run.scene_file()->sources;
    layers.palette = render::grain_palette(run.preset());
    return layers;
}

render::FeedTiming Frame::feed(sim::Run& run, const FrameView& view, render::FeedPath path) {
    scene_.reserve(run.particle_count());
    scene_.set_look(view.look);
    return scene_.feed(run.simulator(), style(run, view), path);
}

void Frame::draw(const sim::Run& run, const FrameView& view, const render::Viewport& viewport) {
    scene_.set_look(view.look);
    scene_.draw(camera_, viewport, layers(run, view));
}

}  // namespace plab::app
