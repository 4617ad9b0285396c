#pragma once
// What the splatter tests share: a scene of hand-placed particles, the CPU reference splat's
// image over the scene's background, and how two images agree (pixels covered by particles in
// either, and how many of those differ beyond a colour tolerance).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "render/offscreen_target.h"
#include "render/scene_pass.h"
#include "render/screenshot.h"
#include "render/splat_reference.h"
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"

namespace plab::render::testing {

// render/scene_pass.cpp's background as 8-bit RGB.
constexpr std::uint8_t kBackgroundRgb[3] = {18, 20, 26};

inline bool is_background(const std::uint8_t* p) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(p[c] - kBackgroundRgb[c]) > 1) return false;
    return true;
}

struct Agreement {
    long covered = 0;    // pixels that are not background in either image
    long differing = 0;  // of those, pixels where a channel differs by more than the tolerance
    std::string text() const {
        return std::to_string(differing) + " of " + std::to_string(covered) +
               " covered pixels differ";
    }
};

// Two top-row-first RGBA8 images of the same size.
inline Agreement compare_images(const std::vector<std::uint8_t>& a,
                                const std::vector<std::uint8_t>& b, int tolerance) {
    Agreement r;
    for (std::size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4) {
        if (is_background(&a[i]) && is_background(&b[i])) continue;
        ++r.covered;
        for (int c = 0; c < 3; ++c) {
            if (std::abs(a[i + c] - b[i + c]) > tolerance) {
                ++r.differing;
                break;
            }
        }
    }
    return r;
}

// With PLAB_TEST_IMAGE_DIR set, writes NAME_a.png, NAME_b.png and NAME_diff.png there (the
// pixels that differ beyond `tolerance` white, the covered ones that agree grey), to see where
// two renderers part; without it does nothing.
inline void save_comparison(const std::string& name, const std::vector<std::uint8_t>& a,
                            const std::vector<std::uint8_t>& b, int width, int height,
                            int tolerance) {
    const char* dir = std::getenv("PLAB_TEST_IMAGE_DIR");
    if (dir == nullptr || a.size() != b.size()) return;
    std::vector<std::uint8_t> diff(a.size(), 0);
    for (std::size_t i = 0; i + 3 < a.size(); i += 4) {
        diff[i + 3] = 255;
        if (is_background(&a[i]) && is_background(&b[i])) continue;
        bool differs = false;
        for (int c = 0; c < 3; ++c) differs |= std::abs(a[i + c] - b[i + c]) > tolerance;
        for (int c = 0; c < 3; ++c) diff[i + c] = differs ? 255 : 90;
    }
    const auto write = [&](const std::string& suffix, const std::vector<std::uint8_t>& rgba) {
        std::ofstream(std::string(dir) + "/" + name + suffix, std::ios::binary)
            << encode_png(width, height, rgba);
    };
    write("_a.png", a);
    write("_b.png", b);
    write("_diff.png", diff);
}

// The reference splat of `positions`/`colors` as ScenePass would draw it into a whole
// width × height target: top-row-first RGBA8 over the background.
inline std::vector<std::uint8_t> reference_image(const std::vector<sim::Float4>& positions,
                                                 const std::vector<sim::Float4>& colors,
                                                 const OrbitCamera& camera, int width, int height,
                                                 float radius, const Lighting& lighting) {
    const Viewport all{0, 0, width, height};
    const SplatView v =
        make_splat_view(ScenePass::render_view(camera, all), lighting, radius, width, height);
    const std::vector<std::uint64_t> keys = splat_reference(positions, colors, v);
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::uint32_t c = resolve_color(keys[static_cast<std::size_t>(y) * width + x]);
            // Row 0 of the keys is the bottom; row 0 of the image the top.
            std::uint8_t* p = &rgba[(static_cast<std::size_t>(height - 1 - y) * width + x) * 4];
            const bool empty = (c >> 24) == 0;
            for (int k = 0; k < 3; ++k)
                p[k] = empty ? kBackgroundRgb[k] : static_cast<std::uint8_t>(c >> (8 * k));
            p[3] = 255;
        }
    return rgba;
}

// The classic preset's parameters and domain with `positions` as its particles (at rest).
struct PlacedScene {
    sim::Params params = sim::preset_params(sim::Preset::Classic);
    sim::InitialState initial;

    explicit PlacedScene(const std::vector<sim::Float4>& positions) {
        initial =
            sim::build_initial_state(sim::preset_scene(sim::Preset::Classic, 8, params), params, 8);
        initial.pos = positions;
        for (sim::Float4& p : initial.pos) p.w = params.radius;
        initial.vel.assign(positions.size(), sim::Float4{});
    }
};

// The particles as the simulator exports them for drawing (host arrays).
inline void export_host(sim::Simulator& simulator, const sim::RenderStyle& style,
                        std::vector<sim::Float4>& positions, std::vector<sim::Float4>& colors) {
    const std::size_t n = simulator.particle_count();
    positions.assign(std::max<std::size_t>(n, 1), {});
    colors.assign(std::max<std::size_t>(n, 1), {});
    sim::RenderTarget target;
    target.positions = positions.data();
    target.colors = colors.data();
    target.capacity = positions.size();
    simulator.export_render(target, style);
    positions.resize(n);
    colors.resize(n);
}

}  // namespace plab::render::testing
