// The CUDA renderer (render/splat_renderer.h) against the GL sprites and the CPU reference
// splat: the same state and camera give images that differ beyond a small colour tolerance on
// at most 1% of the covered pixels, for each colour map, a near particle hiding a far one,
// particles before the near plane and behind the eye, a sphere larger than the target, N = 0
// and 1, a viewport beside a panel and targets that change size; the box lines are hidden
// behind particles as with the sprites (the composite writes depth). Needs a CUDA device and a
// GL context on it (EGL device platform); anywhere else the tests report skipped.
#include <gtest/gtest.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "render/egl_test.h"
#include "render/interop_buffer.h"
#include "render/offscreen_target.h"
#include "render/scene_pass.h"
#include "render/splat_compare.h"
#include "render/splat_renderer.h"
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::render {
namespace {

using testing::compare_images;
using testing::export_host;
using testing::PlacedScene;
using testing::reference_image;
using testing::save_comparison;

constexpr int kTolerance = 6;  // 8-bit steps

class SplatRendererTest : public testing::EglTest {
  protected:
    void SetUp() override {
        PLAB_SKIP_WITHOUT_CUDA();
        testing::EglTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const std::string why = splat_unavailable_reason(true);
        if (!why.empty()) GTEST_SKIP() << why;
    }
};

struct Frame {
    int width, height;
    Viewport viewport;
};

// Draws `pass`'s last feed with `kind` into a fresh target as the bench frames it.
std::vector<std::uint8_t> draw(ScenePass& pass, ParticleRendererKind kind,
                               const OrbitCamera& camera, const SceneLayers& layers,
                               const Frame& f) {
    const OffscreenTarget target(f.width, f.height);
    target.bind();
    ScenePass::clear(f.width, f.height);
    pass.set_renderer(kind);
    pass.draw(camera, f.viewport, layers);
    return target.read_pixels();
}

std::unique_ptr<sim::Simulator> cuda_simulator(const sim::InitialState& initial,
                                               const sim::Params& params) {
    std::unique_ptr<sim::Simulator> s = sim::make_simulator(sim::Backend::Cuda);
    s->reset(initial, params);
    return s;
}

OrbitCamera framed(const sim::Domain& d, float aspect, float zoom) {
    OrbitCamera camera;
    camera.frame_box({d.min.x, d.min.y, d.min.z}, {d.max.x, d.max.y, d.max.z}, aspect);
    camera.zoom(zoom);
    return camera;
}

TEST_F(SplatRendererTest, AgreesWithTheGlSpritesForEachColourMap) {
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 50'000;
    const sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount);
    auto simulator = cuda_simulator(initial, params);
    for (int i = 0; i < 40; ++i) simulator->step(params);
    simulator->synchronize();

    const Frame f{640, 360, {0, 0, 640, 360}};
    const OrbitCamera camera = framed(initial.domain, 640.f / 360.f, 2.f);
    const SceneLayers with_lines = scene_layers(params, initial.domain);
    SceneLayers particles_only = with_lines;
    particles_only.show_box = particles_only.show_collider = false;
    ScenePass pass;
    pass.reserve(kCount);
    for (const sim::ColorMode mode :
         {sim::ColorMode::Speed, sim::ColorMode::ParticleId, sim::ColorMode::Cell}) {
        SCOPED_TRACE(std::string(sim::color_mode_name(mode)));
        const sim::RenderStyle style =
            scene_style(params, initial.domain, {.mode = mode, .speed_scale = 0.05f});
        // A feed into the GL buffers (the GL sprites chosen), which both renderers then read.
        pass.set_renderer(ParticleRendererKind::Gl);
        pass.feed(*simulator, style, FeedPath::Interop);
        for (const SceneLayers* layers : {&with_lines, &std::as_const(particles_only)}) {
            const auto gl = draw(pass, ParticleRendererKind::Gl, camera, *layers, f);
            const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, *layers, f);
            const testing::Agreement a = compare_images(gl, cuda, kTolerance);
            save_comparison(std::string("pile_") + std::string(sim::color_mode_name(mode)) +
                                (layers->show_box ? "_lines" : ""),
                            gl, cuda, f.width, f.height, kTolerance);
            std::printf("%s, lines %s: %s\n", std::string(sim::color_mode_name(mode)).c_str(),
                        layers->show_box ? "on" : "off", a.text().c_str());
            EXPECT_GT(a.covered, 10'000) << a.text();
            EXPECT_LE(a.differing, a.covered / 100) << a.text();
        }
        // The kernels compute what the CPU reference does, from the same exported particles.
        std::vector<sim::Float4> pos, col;
        export_host(*simulator, style, pos, col);
        const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, particles_only, f);
        const auto ref =
            reference_image(pos, col, camera, f.width, f.height, params.radius, pass.lighting());
        const testing::Agreement r = compare_images(cuda, ref, 2);
        EXPECT_LE(r.differing, r.covered / 200) << "against the CPU reference: " << r.text();
    }
    const SplatTimings t = pass.wait_splat_timings();
    std::printf("clear %.4f ms, splat %.4f ms, resolve %.4f ms\n", t.clear_ms, t.splat_ms,
                t.resolve_ms);
    EXPECT_GT(t.splat_ms, 0.0);
    EXPECT_GT(t.resolve_ms, 0.0);
    EXPECT_GE(t.clear_ms, 0.0);
}

TEST_F(SplatRendererTest, NearHidesFarAndNearPlaneAndBehindTheEyeAreCulled) {
    OrbitCamera camera;
    camera.set_orbit({0.f, 0.f, 0.f}, 0.5f, 0.3f, 0.2f);
    const glm::vec3 eye = camera.eye(), fwd = camera.forward(), right = camera.right();
    auto at = [](glm::vec3 p) { return sim::Float4{p.x, p.y, p.z, 0.f}; };
    const PlacedScene scene({at(eye + 0.4f * fwd + 0.004f * right), at(eye + 0.25f * fwd),
                             at(eye + 0.002f * fwd), at(eye - 0.1f * fwd)});
    auto simulator = cuda_simulator(scene.initial, scene.params);
    ScenePass pass;
    pass.reserve(4);
    const sim::RenderStyle style =
        scene_style(scene.params, scene.initial.domain, {.mode = sim::ColorMode::ParticleId});
    pass.feed(*simulator, style, FeedPath::Interop);
    SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
    const Frame f{320, 240, {0, 0, 320, 240}};
    const auto gl = draw(pass, ParticleRendererKind::Gl, camera, layers, f);
    const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, layers, f);
    const testing::Agreement a = compare_images(gl, cuda, kTolerance);
    EXPECT_GT(a.covered, 100) << a.text();
    EXPECT_LT(a.covered, 320 * 240 / 3) << a.text();  // nothing fills the view
    EXPECT_LE(a.differing, a.covered / 100) << a.text();

    layers.show_box = layers.show_collider = false;
    std::vector<sim::Float4> pos, col;
    export_host(*simulator, style, pos, col);
    const auto ref =
        reference_image(pos, col, camera, 320, 240, scene.params.radius, pass.lighting());
    const testing::Agreement r =
        compare_images(draw(pass, ParticleRendererKind::Cuda, camera, layers, f), ref, 2);
    EXPECT_LE(r.differing, r.covered / 100) << r.text();
}

TEST_F(SplatRendererTest, NoParticlesOneParticleAndASphereLargerThanTheView) {
    const Frame f{320, 240, {0, 0, 320, 240}};
    OrbitCamera camera;
    camera.set_orbit({0.f, 0.f, 0.f}, 0.5f, 0.3f, 0.2f);
    const glm::vec3 eye = camera.eye(), fwd = camera.forward();
    // Nothing fed: only the box and the collider (N = 0).
    {
        const PlacedScene scene({});
        ScenePass pass;
        const SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
        const auto gl = draw(pass, ParticleRendererKind::Gl, camera, layers, f);
        const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, layers, f);
        EXPECT_EQ(compare_images(gl, cuda, 0).differing, 0);
    }
    // One particle in the middle, then one just past the near plane: hundreds of pixels
    // across, clipped to the target.
    for (const float distance : {0.25f, 0.006f}) {
        SCOPED_TRACE(distance);
        const glm::vec3 p = eye + distance * fwd;
        const PlacedScene scene({sim::Float4{p.x, p.y, p.z, 0.f}});
        auto simulator = cuda_simulator(scene.initial, scene.params);
        ScenePass pass;
        pass.reserve(1);
        pass.feed(*simulator, scene_style(scene.params, scene.initial.domain, {}),
                  FeedPath::Interop);
        SceneLayers layers = scene_layers(scene.params, scene.initial.domain);
        const auto gl = draw(pass, ParticleRendererKind::Gl, camera, layers, f);
        const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, layers, f);
        const testing::Agreement a = compare_images(gl, cuda, kTolerance);
        std::printf("one particle at %.3f m: %s\n", distance, a.text().c_str());
        EXPECT_GT(a.covered, 20) << a.text();
        EXPECT_LE(a.differing, a.covered / 100) << a.text();
    }
}

TEST_F(SplatRendererTest, FollowsTheViewportThroughResizes) {
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 20'000;
    const sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount);
    auto simulator = cuda_simulator(initial, params);
    ScenePass pass;
    pass.reserve(kCount);
    pass.feed(*simulator, scene_style(params, initial.domain, {}), FeedPath::Interop);
    const SceneLayers layers = scene_layers(params, initial.domain);
    // A window's viewport beside its panel, then smaller and larger targets (a resize, a
    // HiDPI change), and back.
    for (const Frame& f : {Frame{400, 240, {80, 0, 320, 240}}, Frame{200, 150, {0, 0, 200, 150}},
                           Frame{800, 600, {0, 0, 800, 600}}, Frame{400, 240, {80, 0, 320, 240}}}) {
        SCOPED_TRACE(std::to_string(f.width) + "x" + std::to_string(f.height));
        const OrbitCamera camera = framed(initial.domain, f.viewport.aspect(), 0.f);
        const auto gl = draw(pass, ParticleRendererKind::Gl, camera, layers, f);
        const auto cuda = draw(pass, ParticleRendererKind::Cuda, camera, layers, f);
        const testing::Agreement a = compare_images(gl, cuda, kTolerance);
        save_comparison("resize_" + std::to_string(f.width) + "x" + std::to_string(f.height), gl,
                        cuda, f.width, f.height, kTolerance);
        std::printf("%dx%d: %s\n", f.width, f.height, a.text().c_str());
        EXPECT_GT(a.covered, 500) << a.text();
        EXPECT_LE(a.differing, a.covered / 100) << a.text();
    }
}

TEST_F(SplatRendererTest, TheDeviceFeedDrawsWhatTheGlBuffersHold) {
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 20'000;
    const sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount);
    auto simulator = cuda_simulator(initial, params);
    const Frame f{480, 270, {0, 0, 480, 270}};
    const OrbitCamera camera = framed(initial.domain, 480.f / 270.f, 2.f);
    SceneLayers layers = scene_layers(params, initial.domain);
    layers.show_box = layers.show_collider = false;
    const sim::RenderStyle style = scene_style(params, initial.domain, {.speed_scale = 0.05f});
    ScenePass gl_fed, device_fed, empty;
    gl_fed.reserve(kCount);
    device_fed.set_renderer(ParticleRendererKind::Cuda);  // before its feeds: the device feed
    // Frames with steps between them and no host wait after the device feed: each one must
    // show the state it was fed (the export and the splat are ordered on the device).
    for (int frame = 0; frame < 5; ++frame) {
        SCOPED_TRACE(frame);
        for (int i = 0; i < 10; ++i) simulator->step(params);
        gl_fed.set_renderer(ParticleRendererKind::Gl);  // the feed into the GL buffers
        gl_fed.feed(*simulator, style, FeedPath::Interop);
        const FeedTiming t = device_fed.feed(*simulator, style, FeedPath::Interop);
        EXPECT_EQ(t.map_ms + t.unmap_ms + t.upload_ms, 0.0);  // no GL buffer was touched
        const auto from_gl_buffers = draw(gl_fed, ParticleRendererKind::Cuda, camera, layers, f);
        const auto from_device = draw(device_fed, ParticleRendererKind::Cuda, camera, layers, f);
        const testing::Agreement a = compare_images(from_gl_buffers, from_device, 0);
        EXPECT_GT(a.covered, 5'000) << a.text();
        EXPECT_EQ(a.differing, 0) << a.text();
    }
    // The GL sprites have nothing of a device feed to draw: the background only.
    const auto sprites = draw(device_fed, ParticleRendererKind::Gl, camera, layers, f);
    const auto background = draw(empty, ParticleRendererKind::Gl, camera, layers, f);
    EXPECT_EQ(compare_images(sprites, background, 0).differing, 0);
    // The CPU backend has no device buffers to export from.
    auto cpu = sim::make_simulator(sim::Backend::Cpu);
    cpu->reset(initial, params);
    EXPECT_THROW(device_fed.feed(*cpu, style, FeedPath::Interop), Error);
}

}  // namespace
}  // namespace plab::render
