// The CUDA splatter's math against the GL impostors it reproduces: the CPU reference splat
// (render/splat_reference.h, the kernels' own functions) and the GL sprite renderer draw the
// same particles with the same camera into images that agree, offscreen through EGL (Mesa on
// CPU machines): a settled pile, a near particle hiding a far one, particles before the near
// plane and behind the eye. Without any EGL display the tests are skipped, not passed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "egl_test.h"
#include "render/offscreen_target.h"
#include "render/scene_pass.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "splat_compare.h"

namespace plab::render {
namespace {

using testing::compare_images;
using testing::export_host;
using testing::PlacedScene;
using testing::reference_image;

class SplatVsSprites : public testing::EglTest {};

constexpr int kW = 320;
constexpr int kH = 240;
// Colour steps of 8 bits: rounding, and the shader's float arithmetic against the kernel's,
// move a shade by a step or two.
constexpr int kTolerance = 6;

std::vector<std::uint8_t> draw_gl(ScenePass& pass, const OrbitCamera& camera,
                                  const SceneLayers& layers, int width = kW, int height = kH) {
    const OffscreenTarget target(width, height);
    target.bind();
    ScenePass::clear(width, height);
    pass.draw(camera, {0, 0, width, height}, layers);
    return target.read_pixels();
}

TEST_F(SplatVsSprites, APileDrawsTheSameImage) {
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 4000;
    const sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount);
    sim::CpuSimulator simulator;
    simulator.reset(initial, params);
    for (int i = 0; i < 20; ++i) simulator.step(params);  // moving: colours vary

    const sim::Domain& d = initial.domain;
    SceneLayers layers = scene_layers(params, d);
    layers.show_box = layers.show_collider = false;
    // Close up (spheres several pixels across), and the whole pile in a small target (spheres
    // of one or two pixels, where GL's point rasterisation decides which pixels show).
    struct View {
        int width, height;
        float zoom;
        long min_covered;
    };
    for (const View& view : {View{kW, kH, 4.f, 1000}, View{200, 150, 0.f, 300}}) {
        SCOPED_TRACE(std::to_string(view.width) + "x" + std::to_string(view.height));
        OrbitCamera camera;
        camera.frame_box({d.min.x, d.min.y, d.min.z}, {d.max.x, d.max.y, d.max.z},
                         static_cast<float>(view.width) / static_cast<float>(view.height));
        camera.zoom(view.zoom);
        for (const sim::ColorMode mode : {sim::ColorMode::Speed, sim::ColorMode::ParticleId}) {
            SCOPED_TRACE(std::string(sim::color_mode_name(mode)));
            ScenePass pass;
            pass.reserve(kCount);
            const sim::RenderStyle style =
                scene_style(params, d, {.mode = mode, .speed_scale = 0.1f});
            pass.feed(simulator, style, FeedPath::HostCopy);
            const auto gl = draw_gl(pass, camera, layers, view.width, view.height);

            std::vector<sim::Float4> pos, col;
            export_host(simulator, style, pos, col);
            const auto ref = reference_image(pos, col, camera, view.width, view.height,
                                             params.radius, pass.lighting());
            const testing::Agreement a = compare_images(gl, ref, kTolerance);
            std::printf("%dx%d %s: %s\n", view.width, view.height,
                        std::string(sim::color_mode_name(mode)).c_str(), a.text().c_str());
            EXPECT_GT(a.covered, view.min_covered) << a.text();
            EXPECT_LE(a.differing, a.covered / 100) << a.text();
        }
    }
}

TEST_F(SplatVsSprites, NearHidesFarAndNothingBeforeTheNearPlaneOrBehindTheEye) {
    OrbitCamera camera;
    camera.set_orbit({0.f, 0.f, 0.f}, 0.5f, 0.3f, 0.2f);
    const glm::vec3 eye = camera.eye(), fwd = camera.forward(), right = camera.right();
    auto at = [](glm::vec3 p) { return sim::Float4{p.x, p.y, p.z, 0.f}; };
    // Far first in memory: the order must not matter.
    const std::vector<sim::Float4> placed{
        at(eye + 0.4f * fwd + 0.004f * right),  // far, a little right: peeks out
        at(eye + 0.25f * fwd),                  // near, in the middle
        at(eye + 0.002f * fwd),                 // before the near plane (0.005 m)
        at(eye - 0.1f * fwd),                   // behind the eye
    };
    const PlacedScene scene(placed);
    sim::CpuSimulator simulator;
    simulator.reset(scene.initial, scene.params);
    ASSERT_EQ(simulator.particle_count(), placed.size());

    ScenePass pass;
    pass.reserve(placed.size());
    const sim::RenderStyle style =
        scene_style(scene.params, scene.initial.domain, {.mode = sim::ColorMode::ParticleId});
    pass.feed(simulator, style, FeedPath::HostCopy);
    SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
    layers.show_box = layers.show_collider = false;
    const auto gl = draw_gl(pass, camera, layers);

    std::vector<sim::Float4> pos, col;
    export_host(simulator, style, pos, col);
    const auto ref =
        reference_image(pos, col, camera, kW, kH, scene.params.radius, pass.lighting());
    const testing::Agreement a = compare_images(gl, ref, kTolerance);
    EXPECT_GT(a.covered, 100) << a.text();
    EXPECT_LE(a.differing, a.covered / 100) << a.text();

    // Only two spheres show: the image is not filled by the one before the near plane, and the
    // centre pixel is the near sphere's colour (the centre of the image is its centre).
    EXPECT_LT(a.covered, kW * kH / 4) << a.text();
    const std::size_t centre = (static_cast<std::size_t>(kH / 2) * kW + kW / 2) * 4;
    // The near sphere's colour in export order, lit as its front (the normal faces the eye).
    const glm::vec3 near_at = eye + 0.25f * fwd;
    std::size_t near = 0;
    for (std::size_t i = 0; i < pos.size(); ++i)
        if (glm::length(glm::vec3(pos[i].x, pos[i].y, pos[i].z) - near_at) < 1e-4f) near = i;
    const Lighting& light = pass.lighting();
    const float lit = light.ambient + (1.f - light.ambient) * light.direction_view.z;
    for (int c = 0; c < 3; ++c) {
        const float want = (&col[near].x)[c] * lit * 255.f;
        EXPECT_NEAR(ref[centre + c], want, 3.f) << c;
        EXPECT_NEAR(gl[centre + c], want, 3.f) << c;
    }
}

}  // namespace
}  // namespace plab::render
