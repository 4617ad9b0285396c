// Offscreen scene pieces through EGL: the domain box and collider lines at their projected
// places, screenshots that read back byte for byte, GPU timer queries, and the host-copy
// particle feed. Without any EGL display every test is skipped, not passed.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "egl_test.h"
#include "render/egl_context.h"
#include "render/gl_check.h"
#include "render/gpu_timer.h"
#include "render/line_renderer.h"
#include "render/offscreen_target.h"
#include "render/orbit_camera.h"
#include "render/particle_feed.h"
#include "render/particle_renderer.h"
#include "render/screenshot.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"

namespace plab::render {
namespace {

using testing::pixel_at;
using testing::Rgba;

class RenderScene : public testing::EglTest {};

constexpr Rgba kClear{10, 20, 30, 255};

void clear_target(const OffscreenTarget& target) {
    target.bind();
    PLAB_GL_CHECK(glClearColor(kClear[0] / 255.f, kClear[1] / 255.f, kClear[2] / 255.f, 1.f));
    PLAB_GL_CHECK(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
}

// Whether any pixel within `radius` of (x, y) has exactly this colour.
bool colour_near(const std::vector<std::uint8_t>& rgba, int w, int h, glm::vec2 at, Rgba colour,
                 int radius = 1) {
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const int x = static_cast<int>(at.x) + dx;
            const int y = static_cast<int>(at.y) + dy;
            if (x < 0 || y < 0 || x >= w || y >= h) continue;
            if (pixel_at(rgba, w, x, y) == colour) return true;
        }
    }
    return false;
}

glm::vec2 to_screen(glm::vec3 p, const glm::mat4& view, const glm::mat4& proj, int w, int h) {
    const glm::vec3 s = glm::project(p, view, proj, glm::vec4(0.f, 0.f, w, h));
    return {s.x, static_cast<float>(h) - s.y};
}

TEST_F(RenderScene, BoxEdgesAreDrawnThroughTheProjectedCorners) {
    constexpr int kW = 320;
    constexpr int kH = 240;
    OrbitCamera cam;
    const glm::vec3 lo(-1.f, -1.f, -1.f);
    const glm::vec3 hi(1.f, 0.5f, 1.f);
    cam.set_orbit({0.f, 0.f, 0.f}, 1.f, 0.6f, 0.45f);
    cam.frame_box(lo, hi, static_cast<float>(kW) / kH);
    const glm::mat4 view = cam.view();
    const glm::mat4 proj = cam.projection(static_cast<float>(kW) / kH);

    LineRenderer lines;
    const OffscreenTarget target(kW, kH);
    clear_target(target);
    const glm::vec4 colour(1.f, 1.f, 0.f, 1.f);
    lines.draw_box(lo, hi, proj * view, colour);
    const std::vector<std::uint8_t> rgba = target.read_pixels();
    const Rgba yellow{255, 255, 0, 255};

    auto corner = [&](int i) {
        return glm::vec3((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    };
    int drawn = 0;
    for (int i = 0; i < 8; ++i) {
        // Every corner, and the middle of each edge leaving it (nothing hides lines here).
        const glm::vec2 c = to_screen(corner(i), view, proj, kW, kH);
        EXPECT_TRUE(colour_near(rgba, kW, kH, c, yellow)) << "corner " << i;
        for (int axis = 0; axis < 3; ++axis) {
            const int j = i ^ (1 << axis);
            const glm::vec2 mid = to_screen(0.5f * (corner(i) + corner(j)), view, proj, kW, kH);
            EXPECT_TRUE(colour_near(rgba, kW, kH, mid, yellow)) << "edge " << i << "-" << j;
            ++drawn;
        }
    }
    EXPECT_EQ(drawn, 24);
    // Inside a face, away from every edge, the background shows.
    const glm::vec2 face = to_screen({0.f, hi.y, 0.f}, view, proj, kW, kH);
    EXPECT_EQ(pixel_at(rgba, kW, static_cast<int>(face.x), static_cast<int>(face.y)), kClear);
}

TEST_F(RenderScene, WireSphereIsDrawnAtTheColliderAndNotWithRadiusZero) {
    constexpr int kSize = 200;
    OrbitCamera cam;
    cam.set_orbit({0.f, 0.f, 0.f}, 4.f, 0.f, 0.f);
    const glm::mat4 view = cam.view();
    const glm::mat4 proj = cam.projection(1.f);
    const glm::vec3 centre(0.3f, -0.2f, 0.f);
    constexpr float kRadius = 0.5f;

    LineRenderer lines;
    const OffscreenTarget target(kSize, kSize);
    clear_target(target);
    lines.draw_sphere(centre, kRadius, proj * view, {0.f, 1.f, 1.f, 1.f});
    std::vector<std::uint8_t> rgba = target.read_pixels();
    const Rgba cyan{0, 255, 255, 255};
    // The poles lie on every meridian; (±r, 0, 0) on the meridian facing the camera.
    for (const glm::vec3 offset : {glm::vec3(0.f, kRadius, 0.f), glm::vec3(0.f, -kRadius, 0.f),
                                   glm::vec3(kRadius, 0.f, 0.f), glm::vec3(-kRadius, 0.f, 0.f)}) {
        const glm::vec2 s = to_screen(centre + offset, view, proj, kSize, kSize);
        EXPECT_TRUE(colour_near(rgba, kSize, kSize, s, cyan))
            << "offset " << offset.x << ", " << offset.y;
    }
    const glm::vec2 far_away = to_screen(centre + glm::vec3(1.5f * kRadius, 1.5f * kRadius, 0.f),
                                         view, proj, kSize, kSize);
    EXPECT_EQ(pixel_at(rgba, kSize, static_cast<int>(far_away.x), static_cast<int>(far_away.y)),
              kClear);

    clear_target(target);
    lines.draw_sphere(centre, 0.f, proj * view, {0.f, 1.f, 1.f, 1.f});
    rgba = target.read_pixels();
    for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) ASSERT_EQ(pixel_at(rgba, kSize, x, y), kClear);
    }
}

TEST_F(RenderScene, ScreenshotPngReadsBackWithTheSamePixels) {
    constexpr int kW = 96;
    constexpr int kH = 64;
    const OffscreenTarget target(kW, kH);
    clear_target(target);
    // A gradient of scissored clears, so every row and column differ.
    PLAB_GL_CHECK(glEnable(GL_SCISSOR_TEST));
    for (int i = 0; i < 8; ++i) {
        PLAB_GL_CHECK(glScissor(i * 12, i * 8, 12, kH - i * 8));
        PLAB_GL_CHECK(glClearColor(i / 8.f, 1.f - i / 8.f, 0.5f, 1.f));
        PLAB_GL_CHECK(glClear(GL_COLOR_BUFFER_BIT));
    }
    PLAB_GL_CHECK(glDisable(GL_SCISSOR_TEST));

    const std::vector<std::uint8_t> shot = read_framebuffer(target.framebuffer(), kW, kH);
    ASSERT_EQ(shot, target.read_pixels());  // same orientation as the tested read-back

    const std::string png = encode_png(kW, kH, shot);
    int w = 0, h = 0, channels = 0;
    stbi_uc* loaded = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()),
                                            static_cast<int>(png.size()), &w, &h, &channels, 4);
    ASSERT_NE(loaded, nullptr) << stbi_failure_reason();
    const std::vector<std::uint8_t> back(loaded, loaded + static_cast<std::size_t>(w) * h * 4);
    stbi_image_free(loaded);
    EXPECT_EQ(w, kW);
    EXPECT_EQ(h, kH);
    EXPECT_EQ(back, shot);
}

TEST_F(RenderScene, EncodePngRefusesPixelsThatDoNotMakeTheImage) {
    const std::vector<std::uint8_t> pixels(4 * 4 * 4, 128);
    EXPECT_GT(encode_png(4, 4, pixels).size(), 8u);
    try {
        encode_png(5, 4, pixels);
        FAIL() << "no exception";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("5x4"), std::string::npos) << e.what();
    }
    EXPECT_THROW(encode_png(0, 4, {}), Error);
}

TEST_F(RenderScene, GpuTimerReportsTheTimeOfADraw) {
    GpuTimer timer;
    EXPECT_FALSE(timer.poll().has_value());
    const OffscreenTarget target(256, 256);
    clear_target(target);
    std::vector<glm::vec4> points;
    for (int i = 0; i < 20000; ++i) points.emplace_back((i % 200) * 0.01f - 1.f, 0.f, 0.f, 1.f);
    Buffer pos = make_buffer();
    Buffer col = make_buffer();
    const auto bytes = static_cast<GLsizeiptr>(points.size() * sizeof(glm::vec4));
    PLAB_GL_CHECK(glNamedBufferData(pos.get(), bytes, points.data(), GL_STATIC_DRAW));
    PLAB_GL_CHECK(glNamedBufferData(col.get(), bytes, points.data(), GL_STATIC_DRAW));
    ParticleRenderer renderer;
    RenderView view;
    view.view = glm::lookAt(glm::vec3(0.f, 0.f, 3.f), glm::vec3(0.f), glm::vec3(0.f, 1.f, 0.f));
    view.projection = glm::perspective(glm::radians(45.f), 1.f, 0.1f, 10.f);
    view.viewport_height = 256;

    timer.begin();
    renderer.draw(pos.get(), col.get(), static_cast<int>(points.size()), view, 0.05f);
    timer.end();
    PLAB_GL_CHECK(glFinish());
    std::optional<double> ms;
    for (int i = 0; i < 1000 && !ms; ++i) ms = timer.poll();
    ASSERT_TRUE(ms.has_value()) << "the query never finished";
    EXPECT_GT(*ms, 0.0);
    EXPECT_LT(*ms, 10000.0);

    // Spans keep being timed while results are collected.
    for (int frame = 0; frame < 10; ++frame) {
        timer.begin();
        renderer.draw(pos.get(), col.get(), 100, view, 0.05f);
        timer.end();
    }
    PLAB_GL_CHECK(glFinish());
    EXPECT_TRUE(timer.poll().has_value());
}

TEST_F(RenderScene, HostCopyFeedFillsTheBuffersWithTheExportedParticles) {
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 3000;
    const sim::InitialState initial = sim::build_initial_state(
        sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount);
    sim::CpuSimulator simulator;
    simulator.reset(initial, params);
    for (int i = 0; i < 5; ++i) simulator.step(params);

    ParticleFeed feed;
    feed.reserve(kCount);
    EXPECT_GE(feed.capacity(), kCount);
    const sim::RenderStyle style{sim::ColorMode::Speed, 0.01f};
    const FeedTiming timing = feed.feed(simulator, style, FeedPath::HostCopy);
    EXPECT_EQ(timing.path, FeedPath::HostCopy);
    EXPECT_GE(timing.total_ms(), 0.0);

    std::vector<sim::Float4> want_pos(kCount), want_col(kCount);
    simulator.export_render({want_pos.data(), want_col.data(), kCount, false}, style);
    std::vector<sim::Float4> got_pos(kCount), got_col(kCount);
    const auto bytes = static_cast<GLsizeiptr>(kCount * sizeof(sim::Float4));
    PLAB_GL_CHECK(glGetNamedBufferSubData(feed.positions(), 0, bytes, got_pos.data()));
    PLAB_GL_CHECK(glGetNamedBufferSubData(feed.colors(), 0, bytes, got_col.data()));
    EXPECT_EQ(0, std::memcmp(got_pos.data(), want_pos.data(), static_cast<std::size_t>(bytes)));
    EXPECT_EQ(0, std::memcmp(got_col.data(), want_col.data(), static_cast<std::size_t>(bytes)));

    // A buffer too small for the simulator is refused, not overrun.
    ParticleFeed small;
    EXPECT_THROW(small.feed(simulator, style, FeedPath::HostCopy), Error);
}

}  // namespace
}  // namespace plab::render
