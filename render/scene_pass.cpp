#include "render/scene_pass.h"

#include <algorithm>
#include <vector>

#include "render/gl_check.h"
#include "render/material_view.h"
#include "sim/engine/source_outline.h"
#include "sim/geometry/outline_edges.h"
#include "sim/model/derived.h"

namespace plab::render {
namespace {

// The scene's colours: one background for every driver, so a headless frame and the
// window's look the same.
constexpr glm::vec3 kClearColor{0.07f, 0.08f, 0.10f};
constexpr glm::vec4 kBoxColor{0.55f, 0.58f, 0.65f, 1.f};
constexpr glm::vec4 kColliderColor{0.95f, 0.75f, 0.35f, 1.f};
constexpr glm::vec4 kBodyColor{0.45f, 0.78f, 0.72f, 1.f};
constexpr glm::vec4 kEmitterColor{0.45f, 0.85f, 0.35f, 1.f};  // where particles come in
constexpr glm::vec4 kSinkColor{0.90f, 0.35f, 0.30f, 1.f};     // where they leave

glm::vec3 to_glm(sim::Vec3 v) { return {v.x, v.y, v.z}; }

}  // namespace

sim::RenderStyle scene_style(const sim::Params& p, const sim::Domain& domain,
                             const ColorChoice& choice) {
    sim::RenderStyle style;
    style.color = choice.mode;
    // The ramps divide by these: keep them positive whatever a slider or flag says.
    style.speed_scale = std::max(choice.speed_scale, 1e-6f);
    style.rest_density = p.rest_density;
    style.density_span = std::max(choice.density_span, 1e-5f);
    style.tait_b = static_cast<float>(sim::tait_b(p));
    style.pressure_scale = std::max(choice.pressure_scale, 1e-3f);
    style.spin_scale = std::max(choice.spin_scale, 1e-6f);
    style.spins = sim::has_rotation(p);
    if (choice.auto_pressure_scale) {
        // The hydrostatic pressure at the bottom of a domain full of liquid.
        style.pressure_scale = std::max(
            p.rest_density * sim::gravity_magnitude(p) * (domain.max.y - domain.min.y), 1.f);
    }
    return style;
}

SceneLayers scene_layers(const sim::Params& p, const sim::Domain& domain) {
    SceneLayers layers;
    layers.domain = domain;
    layers.radius = p.radius;
    layers.collider_center = {p.collider_x, p.collider_y, p.collider_z};
    layers.collider_radius = p.collider_radius;
    layers.plate = p.silo_floor > 0.f;
    layers.plate_y = domain.min.y + p.silo_floor;
    layers.orifice_radius = 0.5f * p.orifice;
    layers.material = material_kind(p.model);
    return layers;
}

float Viewport::aspect() const {
    return height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.f;
}

ScenePass::ScenePass() = default;
// The splatter's registrations refer to the feed's buffers: it goes first.
ScenePass::~ScenePass() { splat_.reset(); }

FeedTiming ScenePass::feed(sim::Simulator& simulator, const sim::RenderStyle& style,
                           FeedPath path) {
    fed_ = 0;  // a failed feed leaves nothing known to draw
    // The CUDA renderer reads a device feed from its own buffers: no GL buffer is involved.
    fed_device_ = renderer_ == ParticleRendererKind::Cuda && path == FeedPath::Interop;
    // The material look shades grains by a hash of their id colour: stable across frames.
    sim::RenderStyle fed_style = style;
    if (look_ == Look::Material && renderer_ == ParticleRendererKind::Cuda)
        fed_style.color = sim::ColorMode::ParticleId;
    FeedTiming t;
    if (fed_device_) {
        if (!splat_) splat_ = std::make_unique<SplatRenderer>();
        t = splat_->feed(simulator, fed_style);
    } else {
        t = feed_.feed(simulator, fed_style, path);
    }
    fed_ = static_cast<int>(simulator.particle_count());
    return t;
}

void ScenePass::clear(int width, int height) {
    PLAB_GL_CHECK(glViewport(0, 0, width, height));
    PLAB_GL_CHECK(glClearColor(kClearColor.r, kClearColor.g, kClearColor.b, 1.f));
    PLAB_GL_CHECK(glClearDepth(1.0));
    PLAB_GL_CHECK(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
}

RenderView ScenePass::render_view(const OrbitCamera& camera, const Viewport& viewport) {
    RenderView view;
    view.view = camera.view();
    view.projection = camera.projection(viewport.aspect());
    view.viewport_height = static_cast<float>(viewport.height);
    return view;
}

void ScenePass::draw(const OrbitCamera& camera, const Viewport& viewport, const SceneLayers& what) {
    PLAB_REQUIRE(viewport.width > 0 && viewport.height > 0, "the scene's viewport is empty");
    PLAB_GL_CHECK(glViewport(viewport.x, viewport.y, viewport.width, viewport.height));
    const RenderView view = render_view(camera, viewport);
    const glm::mat4 view_projection = view.projection * view.view;

    if (renderer_ == ParticleRendererKind::Cuda) {
        if (!splat_) splat_ = std::make_unique<SplatRenderer>();
        splat_->set_look(look_, what.material, what.domain,
                         what.show_bodies ? what.bodies : nullptr, what.palette);
        if (fed_device_) {
            splat_->draw_device(fed_, view, particles_.lighting(), what.radius, viewport.x,
                                viewport.y, viewport.width, viewport.height);
        } else {
            splat_->draw(feed_, fed_, view, particles_.lighting(), what.radius, viewport.x,
                         viewport.y, viewport.width, viewport.height);
        }
    } else {
        // After a device feed the GL buffers hold nothing of this frame: no particles are
        // drawn until the next feed to them (the caller feeds again after switching).
        particles_.draw(feed_.positions(), feed_.colors(), fed_device_ ? 0 : fed_, view,
                        what.radius);
    }
    if (what.show_box) {
        lines_.draw_box(to_glm(what.domain.min), to_glm(what.domain.max), view_projection,
                        kBoxColor);
        if (what.plate) {
            const sim::Domain& d = what.domain;
            lines_.draw_plate(to_glm(d.min), to_glm(d.max), what.plate_y,
                              {0.5f * (d.min.x + d.max.x), 0.5f * (d.min.z + d.max.z)},
                              what.orifice_radius, view_projection, kBoxColor);
        }
    }
    // The material look shades the bodies itself (the CUDA renderer); the data look draws
    // their outline edges.
    const bool shaded_bodies = look_ == Look::Material && renderer_ == ParticleRendererKind::Cuda;
    if (what.show_bodies && what.bodies && !shaded_bodies) {
        if (what.bodies != drawn_bodies_) {
            const std::vector<sim::Vec3> ends = sim::outline_edges(*what.bodies);
            std::vector<glm::vec3> points(ends.size());
            std::transform(ends.begin(), ends.end(), points.begin(), to_glm);
            lines_.set_segments(points);
            drawn_bodies_ = what.bodies;
        }
        lines_.draw_segments(view_projection, kBodyColor);
    }
    if (what.show_bodies) draw_sources(what.sources, view_projection);
    if (what.show_collider) {
        // A radius of 0 switches the collider off; draw_sphere then draws nothing.
        lines_.draw_sphere(what.collider_center, what.collider_radius, view_projection,
                           kColliderColor);
    }
}

void ScenePass::draw_sources(const sim::Sources& sources, const glm::mat4& view_projection) {
    for (const sim::Sink& s : sources.sinks)
        lines_.draw_box(to_glm(s.min), to_glm(s.max), view_projection, kSinkColor);
    if (sources.emitters.empty()) return;
    const std::vector<sim::Vec3> ends = sim::emitter_outline_edges(sources);
    std::vector<glm::vec3> points(ends.size());
    std::transform(ends.begin(), ends.end(), points.begin(), to_glm);
    if (points != drawn_emitters_) {  // uploaded only when an emitter changed
        source_lines_.set_segments(points);
        drawn_emitters_ = std::move(points);
    }
    source_lines_.draw_segments(view_projection, kEmitterColor);
}

std::string ScenePass::look_fallback() const {
    if (look_ == Look::Material && renderer_ != ParticleRendererKind::Cuda)
        return "the material look is drawn by the CUDA renderer (renderer=cuda); the GL "
               "renderer draws the data look";
    return {};
}

std::optional<SplatTimings> ScenePass::poll_splat_timings() {
    return splat_ ? splat_->poll_timings() : std::nullopt;
}

SplatTimings ScenePass::wait_splat_timings() {
    PLAB_REQUIRE(splat_ != nullptr, "the CUDA renderer has drawn nothing to time");
    return splat_->wait_timings();
}

}  // namespace plab::render
