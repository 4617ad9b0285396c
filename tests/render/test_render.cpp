// Headless rendering through EGL: the context, the offscreen target's read-back, the sphere
// impostors against positions and sizes projected with GLM, and shader errors that name the
// file and carry the driver's log. Without any EGL display every test is skipped, not passed.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "egl_test.h"
#include "render/egl_context.h"
#include "render/embedded_shaders.h"
#include "render/gl_check.h"
#include "render/gl_handles.h"
#include "render/offscreen_target.h"
#include "render/particle_renderer.h"
#include "render/shader_program.h"
#include "sim/core/error.h"

namespace plab::render {
namespace {

using testing::pixel_at;
using testing::Rgba;
using testing::to_string;

class Render : public testing::EglTest {};

Buffer upload_vec4s(const std::vector<glm::vec4>& values) {
    Buffer buffer = make_buffer();
    PLAB_GL_CHECK(glNamedBufferData(buffer.get(),
                                    static_cast<GLsizeiptr>(values.size() * sizeof(glm::vec4)),
                                    values.data(), GL_STATIC_DRAW));
    return buffer;
}

// Exactly representable in RGBA8, so the cleared bytes are known without rounding doubts.
constexpr Rgba kClear{10, 20, 30, 255};

void clear_target(const OffscreenTarget& target) {
    target.bind();
    PLAB_GL_CHECK(glDisable(GL_SCISSOR_TEST));
    PLAB_GL_CHECK(glClearColor(kClear[0] / 255.f, kClear[1] / 255.f, kClear[2] / 255.f, 1.f));
    PLAB_GL_CHECK(glClearDepth(1.0));
    PLAB_GL_CHECK(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
}

TEST_F(Render, ContextComesUpWithOpenGl45Core) {
    EXPECT_FALSE(context_->renderer().empty());
    EXPECT_FALSE(context_->version().empty());
    GLint major = 0;
    GLint minor = 0;
    GLint profile = 0;
    PLAB_GL_CHECK(glGetIntegerv(GL_MAJOR_VERSION, &major));
    PLAB_GL_CHECK(glGetIntegerv(GL_MINOR_VERSION, &minor));
    PLAB_GL_CHECK(glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile));
    EXPECT_TRUE(major > 4 || (major == 4 && minor >= 5)) << major << "." << minor;
    EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
    RecordProperty("gl_renderer", context_->renderer());
}

TEST_F(Render, GlCheckThrowsWithCallErrorNameAndLocation) {
    try {
        PLAB_GL_CHECK(glEnable(0xFFFF));  // not a capability
        FAIL() << "no exception";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("glEnable(0xFFFF)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("GL_INVALID_ENUM"), std::string::npos) << msg;
        EXPECT_NE(msg.find("test_render.cpp:"), std::string::npos) << msg;
    }
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));  // the flag was consumed
}

TEST_F(Render, ReadPixelsPutsRowZeroAtTheTop) {
    constexpr int kW = 40;
    constexpr int kH = 30;
    const OffscreenTarget target(kW, kH);
    clear_target(target);
    // Paint the top third red; GL's y runs bottom to top.
    PLAB_GL_CHECK(glEnable(GL_SCISSOR_TEST));
    PLAB_GL_CHECK(glScissor(0, 2 * kH / 3, kW, kH - 2 * kH / 3));
    PLAB_GL_CHECK(glClearColor(1.f, 0.f, 0.f, 1.f));
    PLAB_GL_CHECK(glClear(GL_COLOR_BUFFER_BIT));
    PLAB_GL_CHECK(glDisable(GL_SCISSOR_TEST));

    const std::vector<std::uint8_t> rgba = target.read_pixels();
    ASSERT_EQ(rgba.size(), static_cast<std::size_t>(kW * kH * 4));
    EXPECT_EQ(pixel_at(rgba, kW, 0, 0), (Rgba{255, 0, 0, 255}));
    EXPECT_EQ(pixel_at(rgba, kW, kW - 1, kH / 3 - 1), (Rgba{255, 0, 0, 255}));
    EXPECT_EQ(pixel_at(rgba, kW, 0, kH / 3), kClear);
    EXPECT_EQ(pixel_at(rgba, kW, kW - 1, kH - 1), kClear);
}

TEST_F(Render, OffscreenTargetRejectsEmptySize) {
    EXPECT_THROW(OffscreenTarget(0, 16), Error);
    EXPECT_THROW(OffscreenTarget(16, -1), Error);
}

struct Particle {
    glm::vec3 position;  // m
    glm::vec3 color;
};

// Where a particle lands in a top-row-first image, and its radius there.
struct Projected {
    glm::vec2 center;  // pixels, x right, y down, continuous (pixel i spans i..i+1)
    float radius;      // pixels
};

Projected project(const glm::vec3& p, const RenderView& view, float radius, int width, int height) {
    const glm::vec4 viewport(0.f, 0.f, static_cast<float>(width), static_cast<float>(height));
    const glm::vec3 window = glm::project(p, view.view, view.projection, viewport);
    const glm::vec4 clip = view.projection * view.view * glm::vec4(p, 1.f);
    const float r = radius * view.projection[1][1] / clip.w * (static_cast<float>(height) / 2.f);
    return {{window.x, static_cast<float>(height) - window.y}, r};
}

TEST_F(Render, ParticlesAreLitDiscsAtTheirProjectedPositions) {
    constexpr int kSize = 256;
    constexpr float kRadius = 0.3f;  // m
    const std::vector<Particle> particles = {
        {{0.f, 0.f, 0.f}, {0.9f, 0.2f, 0.2f}},
        {{1.2f, 0.8f, -0.5f}, {0.2f, 0.9f, 0.3f}},
        {{-1.0f, -0.9f, 0.8f}, {0.25f, 0.35f, 0.95f}},
    };
    RenderView view;
    view.view = glm::lookAt(glm::vec3(0.f, 0.f, 5.f), glm::vec3(0.f), glm::vec3(0.f, 1.f, 0.f));
    view.projection = glm::perspective(glm::radians(45.f), 1.f, 0.1f, 100.f);
    view.viewport_height = kSize;

    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> colors;
    for (const Particle& p : particles) {
        positions.emplace_back(p.position, 1.f);
        colors.emplace_back(p.color, 1.f);
    }
    const Buffer position_buffer = upload_vec4s(positions);
    const Buffer color_buffer = upload_vec4s(colors);

    ParticleRenderer renderer;
    const OffscreenTarget target(kSize, kSize);
    clear_target(target);
    renderer.draw(position_buffer.get(), color_buffer.get(), static_cast<int>(particles.size()),
                  view, kRadius);
    const std::vector<std::uint8_t> rgba = target.read_pixels();

    const Lighting& light = renderer.lighting();
    for (std::size_t i = 0; i < particles.size(); ++i) {
        SCOPED_TRACE("particle " + std::to_string(i));
        const Projected s = project(particles[i].position, view, kRadius, kSize, kSize);
        ASSERT_GT(s.radius, 8.f);  // big enough that "just inside/outside" is meaningful
        ASSERT_TRUE(s.center.x > s.radius + 3 && s.center.x < kSize - s.radius - 3 &&
                    s.center.y > s.radius + 3 && s.center.y < kSize - s.radius - 3)
            << "particle leaves the image; fix the test scene";

        // The centre pixel, and pixels half a radius off it towards each side: each is the
        // particle colour times the Lambert term of the sphere's normal at that pixel's centre
        // (up to 8-bit rounding). The off-centre ones tell a lit side from a dark side.
        const std::array<glm::vec2, 5> offsets = {
            glm::vec2(0.f), {0.5f, 0.f}, {-0.5f, 0.f}, {0.f, 0.5f}, {0.f, -0.5f}};
        for (const glm::vec2& offset : offsets) {
            const glm::vec2 at = s.center + offset * s.radius;
            const int x = static_cast<int>(std::floor(at.x));
            const int y = static_cast<int>(std::floor(at.y));
            const glm::vec2 d = (glm::vec2(x + 0.5f, y + 0.5f) - s.center) / s.radius;
            const glm::vec3 normal(d.x, -d.y, std::sqrt(1.f - glm::dot(d, d)));  // y up
            const float lambert = std::max(glm::dot(normal, light.direction_view), 0.f);
            const float shade = light.ambient + (1.f - light.ambient) * lambert;
            const glm::vec3 expected = particles[i].color * shade * 255.f;
            const Rgba got = pixel_at(rgba, kSize, x, y);
            for (int c = 0; c < 3; ++c) {
                EXPECT_NEAR(got[c], expected[c], 3.0)
                    << "pixel (" << x << ", " << y << ") " << to_string(got);
            }
            EXPECT_EQ(got[3], 255);
        }

        // Just inside the projected radius the disc is drawn; just outside it is not.
        for (int k = 0; k < 8; ++k) {
            const float angle = static_cast<float>(k) * glm::pi<float>() / 4.f;
            const glm::vec2 dir(std::cos(angle), std::sin(angle));
            const glm::vec2 in = s.center + dir * (s.radius - 2.f);
            const glm::vec2 out = s.center + dir * (s.radius + 2.f);
            const Rgba inside =
                pixel_at(rgba, kSize, static_cast<int>(in.x), static_cast<int>(in.y));
            const Rgba outside =
                pixel_at(rgba, kSize, static_cast<int>(out.x), static_cast<int>(out.y));
            EXPECT_NE(inside, kClear) << "direction " << k << " inside " << to_string(inside);
            EXPECT_EQ(outside, kClear) << "direction " << k << " outside " << to_string(outside);
        }
    }
}

TEST_F(Render, NearerSphereHidesFartherOneWhateverTheDrawOrder) {
    constexpr int kSize = 128;
    RenderView view;
    view.view = glm::lookAt(glm::vec3(0.f, 0.f, 4.f), glm::vec3(0.f), glm::vec3(0.f, 1.f, 0.f));
    view.projection = glm::perspective(glm::radians(50.f), 1.f, 0.1f, 50.f);
    view.viewport_height = kSize;
    // Near green first, far red second: without depth the red one would win.
    const Buffer positions = upload_vec4s({{0.f, 0.f, 0.5f, 1.f}, {0.f, 0.f, -0.5f, 1.f}});
    const Buffer colors = upload_vec4s({{0.f, 1.f, 0.f, 1.f}, {1.f, 0.f, 0.f, 1.f}});

    ParticleRenderer renderer;
    const OffscreenTarget target(kSize, kSize);
    clear_target(target);
    renderer.draw(positions.get(), colors.get(), 2, view, 0.4f);
    const Rgba centre = pixel_at(target.read_pixels(), kSize, kSize / 2, kSize / 2);
    EXPECT_GT(centre[1], 100) << to_string(centre);
    EXPECT_EQ(centre[0], 0) << to_string(centre);
}

TEST_F(Render, IntersectingSpheresUseTheSphereSurfaceDepth) {
    // A at z = 0 and B at z = -0.1, 0.5 apart in x, radius 0.4. Along y = 0 A's front surface
    // is nearer at x = 0.2 (0.35 vs 0.17) but B's is nearer at x = 0.38 (0.28 vs 0.12), where
    // a flat sprite at A's centre depth would still hide B.
    constexpr int kSize = 128;
    constexpr float kRadius = 0.4f;
    RenderView view;
    // Far and narrow, so the sprite's orthographic normal is close to the true one.
    view.view = glm::lookAt(glm::vec3(0.f, 0.f, 10.f), glm::vec3(0.f), glm::vec3(0.f, 1.f, 0.f));
    view.projection = glm::perspective(glm::radians(15.f), 1.f, 1.f, 50.f);
    view.viewport_height = kSize;
    const Buffer positions = upload_vec4s({{0.f, 0.f, 0.f, 1.f}, {0.5f, 0.f, -0.1f, 1.f}});
    const Buffer colors = upload_vec4s({{1.f, 0.f, 0.f, 1.f}, {0.f, 0.f, 1.f, 1.f}});

    ParticleRenderer renderer;
    const OffscreenTarget target(kSize, kSize);
    clear_target(target);
    renderer.draw(positions.get(), colors.get(), 2, view, kRadius);
    const std::vector<std::uint8_t> rgba = target.read_pixels();

    auto pixel_over = [&](float x) {
        const Projected s = project({x, 0.f, 0.f}, view, kRadius, kSize, kSize);
        return pixel_at(rgba, kSize, static_cast<int>(s.center.x), static_cast<int>(s.center.y));
    };
    const Rgba a_side = pixel_over(0.2f);
    const Rgba b_side = pixel_over(0.38f);
    EXPECT_TRUE(a_side[0] > 0 && a_side[2] == 0) << "expected A (red): " << to_string(a_side);
    EXPECT_TRUE(b_side[2] > 0 && b_side[0] == 0) << "expected B (blue): " << to_string(b_side);
}

TEST_F(Render, DrawRefusesBuffersShorterThanTheCount) {
    const Buffer positions = upload_vec4s({{0.f, 0.f, 0.f, 1.f}});
    const Buffer colors = upload_vec4s({{1.f, 1.f, 1.f, 1.f}});
    ParticleRenderer renderer;
    const OffscreenTarget target(16, 16);
    target.bind();
    EXPECT_THROW(renderer.draw(positions.get(), colors.get(), 2, RenderView{}, 0.1f), Error);
}

TEST_F(Render, CompileErrorNamesTheShaderAndCarriesTheDriverLog) {
    const ShaderSource vertex = embedded_shader("particles.vert");
    const ShaderSource broken{"broken_test.frag",
                              "#version 450 core\n"
                              "out vec4 color;\n"
                              "void main() {\n"
                              "    color = vec4(undeclared_thing_42, 1.0);\n"
                              "}\n"};
    try {
        ShaderProgram program(vertex, broken);
        FAIL() << "a broken shader compiled";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("broken_test.frag"), std::string::npos) << msg;
        EXPECT_NE(msg.find("failed to compile"), std::string::npos) << msg;
        // Drivers quote the offending name in their log (Mesa and NVIDIA alike) and give the
        // line, 4 here.
        EXPECT_NE(msg.find("undeclared_thing_42"), std::string::npos) << msg;
        EXPECT_NE(msg.find('4'), std::string::npos) << msg;
    }
}

TEST_F(Render, LinkErrorNamesTheProgram) {
    // Compiles alone, but a vertex shader without main() cannot link.
    const ShaderSource no_main{"no_main_test.vert", "#version 450 core\nvoid helper() {}\n"};
    try {
        ShaderProgram program(no_main, embedded_shader("particles.frag"));
        FAIL() << "a program without main() linked";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("no_main_test.vert + particles.frag"), std::string::npos) << msg;
        EXPECT_NE(msg.find("failed to link"), std::string::npos) << msg;
    }
}

TEST(EmbeddedShaders, HoldTheParticleShadersByFileName) {
    EXPECT_NE(embedded_shader("particles.vert").text.find("gl_PointSize"), std::string::npos);
    EXPECT_NE(embedded_shader("particles.frag").text.find("discard"), std::string::npos);
    try {
        (void)embedded_shader("nope.frag");
        FAIL() << "no exception";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("particles.vert"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace plab::render
