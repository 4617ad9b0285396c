// The scene pass both drivers draw with (render/scene_pass.h), offscreen through EGL: the clear
// is the one background, the box and collider appear in their colours only when asked, the
// fed particles are drawn, and the colour style follows the parameters. Without any EGL
// display the GL tests are skipped, not passed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "egl_test.h"
#include "render/offscreen_target.h"
#include "render/scene_pass.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/derived.h"
#include "sim/model/presets.h"

namespace plab::render {
namespace {

using testing::pixel_at;
using testing::Rgba;

class ScenePassTest : public testing::EglTest {};

constexpr int kW = 320;
constexpr int kH = 240;
// render/scene_pass.cpp's colours as 8-bit RGBA.
constexpr Rgba kBackground{18, 20, 26, 255};
constexpr Rgba kBox{140, 148, 166, 255};
constexpr Rgba kCollider{242, 191, 89, 255};

// Within one step of 8 bits per channel: drivers round a float colour like 0.10 × 255 = 25.5
// either way (Mesa 26, NVIDIA 25).
bool same_colour(const Rgba& a, const Rgba& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > 1) return false;
    return true;
}

long count(const std::vector<std::uint8_t>& rgba, const Rgba& colour) {
    long n = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) n += same_colour(pixel_at(rgba, kW, x, y), colour);
    return n;
}

struct Scene {
    sim::Params params = sim::preset_params(sim::Preset::Classic);
    sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, 1000, params), params, 1000);
};

// Clears the target and draws `layers` as the bench frames them.
std::vector<std::uint8_t> draw(const OffscreenTarget& target, ScenePass& pass,
                               const SceneLayers& layers) {
    const Viewport all{0, 0, kW, kH};
    OrbitCamera camera;
    const sim::Domain& d = layers.domain;
    camera.frame_box({d.min.x, d.min.y, d.min.z}, {d.max.x, d.max.y, d.max.z}, all.aspect());
    target.bind();
    ScenePass::clear(kW, kH);
    pass.draw(camera, all, layers);
    return target.read_pixels();
}

TEST_F(ScenePassTest, ClearIsTheOneBackground) {
    const OffscreenTarget target(kW, kH);
    target.bind();
    ScenePass::clear(kW, kH);
    EXPECT_EQ(count(target.read_pixels(), kBackground), long{kW} * kH);
}

TEST_F(ScenePassTest, BoxAndColliderOnlyWhenAsked) {
    const Scene scene;
    const OffscreenTarget target(kW, kH);
    ScenePass pass;  // nothing fed: only the lines are drawn
    SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
    ASSERT_GT(layers.collider_radius, 0.f);

    auto shown = draw(target, pass, layers);
    EXPECT_GT(count(shown, kBox), 200);
    EXPECT_GT(count(shown, kCollider), 50);

    layers.show_box = false;
    auto no_box = draw(target, pass, layers);
    EXPECT_EQ(count(no_box, kBox), 0);
    EXPECT_GT(count(no_box, kCollider), 50);

    layers.show_box = true;
    layers.show_collider = false;
    EXPECT_EQ(count(draw(target, pass, layers), kCollider), 0);

    // A collider of radius 0 is switched off, whatever the flag says.
    layers.show_collider = true;
    layers.collider_radius = 0.f;
    EXPECT_EQ(count(draw(target, pass, layers), kCollider), 0);
}

TEST_F(ScenePassTest, ASilosPlateIsDrawnWithTheBox) {
    Scene scene;
    scene.params.silo_floor = 0.3f * (scene.initial.domain.max.y - scene.initial.domain.min.y);
    scene.params.orifice = 0.3f * (scene.initial.domain.max.x - scene.initial.domain.min.x);
    const OffscreenTarget target(kW, kH);
    ScenePass pass;
    SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
    ASSERT_TRUE(layers.plate);
    EXPECT_FLOAT_EQ(layers.plate_y, scene.initial.domain.min.y + scene.params.silo_floor);
    EXPECT_FLOAT_EQ(layers.orifice_radius, 0.5f * scene.params.orifice);
    layers.show_collider = false;
    const long with_plate = count(draw(target, pass, layers), kBox);
    layers.plate = false;
    const long box_only = count(draw(target, pass, layers), kBox);
    EXPECT_GT(with_plate, box_only + 100);  // the outline across the walls and the orifice
    layers.plate = true;
    layers.show_box = false;
    EXPECT_EQ(count(draw(target, pass, layers), kBox), 0);
    // Without a silo floor there is no plate.
    EXPECT_FALSE(
        scene_layers(sim::preset_params(sim::Preset::Classic), scene.initial.domain).plate);
}

TEST_F(ScenePassTest, DrawsTheFedParticles) {
    const Scene scene;
    sim::CpuSimulator simulator;
    simulator.reset(scene.initial, scene.params);
    const OffscreenTarget target(kW, kH);
    ScenePass pass;
    pass.reserve(simulator.particle_count());
    SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
    layers.show_box = layers.show_collider = false;
    const long empty = count(draw(target, pass, layers), kBackground);
    EXPECT_EQ(empty, long{kW} * kH);

    // Every particle at rest is the bottom of the speed ramp: blue, shaded.
    const sim::RenderStyle style = scene_style(scene.params, scene.initial.domain, {});
    pass.feed(simulator, style, FeedPath::HostCopy);
    const auto fed = draw(target, pass, layers);
    long blue = 0;
    for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
            const Rgba c = pixel_at(fed, kW, x, y);
            blue += !same_colour(c, kBackground) && c[2] > 2 * c[0] + 40 && c[2] > 2 * c[1] + 40;
        }
    }
    EXPECT_GT(blue, 300);
}

TEST(SceneStyle, FollowsTheParameters) {
    sim::Params p = sim::preset_params(sim::Preset::Water);
    const sim::Domain domain{{0.f, 0.f, 0.f}, {1.f, 2.f, 1.f}};
    ColorChoice choice;
    choice.mode = sim::ColorMode::Pressure;
    choice.speed_scale = 0.f;  // kept positive: the ramp divides by it
    sim::RenderStyle s = scene_style(p, domain, choice);
    EXPECT_EQ(s.color, sim::ColorMode::Pressure);
    EXPECT_GT(s.speed_scale, 0.f);
    EXPECT_FLOAT_EQ(s.rest_density, p.rest_density);
    EXPECT_FLOAT_EQ(s.tait_b, static_cast<float>(sim::tait_b(p)));
    // Auto: the hydrostatic pressure at the bottom of a full domain, ρ₀ g H.
    EXPECT_FLOAT_EQ(s.pressure_scale, p.rest_density * sim::gravity_magnitude(p) * 2.f);

    choice.auto_pressure_scale = false;
    choice.pressure_scale = 123.f;
    EXPECT_FLOAT_EQ(scene_style(p, domain, choice).pressure_scale, 123.f);

    // The spin ramp: its top as chosen (kept positive), and whether the law rotates at all.
    choice.mode = sim::ColorMode::Spin;
    choice.spin_scale = 40.f;
    EXPECT_FALSE(scene_style(p, domain, choice).spins);  // SPH
    const sim::Params sand = sim::preset_params(sim::Preset::Sand);
    EXPECT_TRUE(scene_style(sand, domain, choice).spins);
    EXPECT_FLOAT_EQ(scene_style(sand, domain, choice).spin_scale, 40.f);
    choice.spin_scale = 0.f;
    EXPECT_GT(scene_style(sand, domain, choice).spin_scale, 0.f);
}

}  // namespace
}  // namespace plab::render
