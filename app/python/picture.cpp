#include "app/python/picture.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <glm/glm.hpp>

#include "render/glm_matrix.h"
#include "render/material_reference.h"
#include "render/material_view.h"
#include "render/orbit_camera.h"
#include "render/splat_reference.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/physics/color_map.h"

namespace plab::app {
namespace {

// The window's background (render/scene_pass.cpp).
constexpr std::uint8_t kBackground[4] = {18, 20, 26, 255};

}  // namespace

Picture draw_picture(sim::Run& run, const std::string& look_name, int width, int height) {
    const render::Look look = sim::parse_enum(render::look_names(), look_name, "look");
    PLAB_REQUIRE(width >= kMinPictureSide && width <= kMaxPictureSide &&
                     height >= kMinPictureSide && height <= kMaxPictureSide,
                 "picture size " + std::to_string(width) + " x " + std::to_string(height) +
                     " is outside " + std::to_string(kMinPictureSide) + " to " +
                     std::to_string(kMaxPictureSide) + " pixels a side");
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    render::OrbitCamera camera;
    const sim::Domain& d = run.domain();
    camera.frame_box({d.min.x, d.min.y, d.min.z}, {d.max.x, d.max.y, d.max.z}, aspect);
    if (const auto& file = run.scene_file(); file && file->camera) {
        const sim::SceneCamera& c = *file->camera;
        camera.set_orbit({c.target.x, c.target.y, c.target.z}, c.distance, glm::radians(c.yaw_deg),
                         glm::radians(c.pitch_deg));
    }
    render::RenderView view;
    view.view = camera.view();
    view.projection = camera.projection(aspect);
    view.viewport_height = static_cast<float>(height);
    render::SplatView splat;
    splat.view = render::to_mat4(view.view);
    splat.projection = render::to_mat4(view.projection);
    splat.width = width;
    splat.height = height;
    splat.radius = run.params().radius;

    const sim::Snapshot state = run.simulator().download();  // id order
    const std::size_t n = state.pos.size();
    std::vector<sim::Float4> colors(n);
    sim::RenderStyle style;
    if (look == render::Look::Material) {
        style.color = sim::ColorMode::ParticleId;  // the grains' tints
    } else {
        float top = 1e-6f;
        for (const sim::Float4& v : state.vel)
            top = std::max(top, std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
        style.speed_scale = std::isfinite(top) ? top : 1.f;
    }
    for (std::size_t i = 0; i < n; ++i)
        colors[i] = sim::particle_color(style, state.vel[i], static_cast<uint32_t>(i), 0u, nullptr);

    Picture out;
    out.width = width;
    out.height = height;
    out.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    auto put = [&](int x, int y, std::uint32_t rgba) {  // y from the bottom
        std::uint8_t* p = &out.rgba[(static_cast<std::size_t>(height - 1 - y) * width + x) * 4];
        if ((rgba >> 24) == 0) {
            std::memcpy(p, kBackground, 4);
            return;
        }
        for (int c = 0; c < 4; ++c) p[c] = static_cast<std::uint8_t>(rgba >> (8 * c));
    };
    if (look == render::Look::Material) {
        const render::MaterialView m =
            render::make_material_view(splat, view, d, render::material_kind(run.params().model),
                                       true, render::grain_palette(run.preset()));
        const auto bodies = run.geometry();
        const render::MaterialImages im =
            render::material_reference(state.pos, colors, m,
                                       bodies ? std::span<const sim::GeoTriangle>(bodies->triangles)
                                              : std::span<const sim::GeoTriangle>());
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                put(x, y, im.pixels[static_cast<std::size_t>(y) * width + x].rgba);
    } else {
        splat.light_dir = {0.f, 0.f, 1.f};  // the renderers' light, fixed to the camera
        splat.ambient = 0.25f;
        const std::vector<std::uint64_t> keys = render::splat_reference(state.pos, colors, splat);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                put(x, y, render::resolve_color(keys[static_cast<std::size_t>(y) * width + x]));
    }
    return out;
}

}  // namespace plab::app
