// The CUDA splatter's math on the CPU (render/splat_math.h, render/splat_reference.h): the
// order-preserving depth key, projection and culling as GL clips points, the sprite size of
// particles.vert, huge and sub-pixel spheres, and a reference splat: a near particle hides a
// far one whatever the order, N = 0 and 1, the shading and depth of the GL impostor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/splat_math.h"
#include "render/splat_reference.h"

namespace plab::render {
namespace {

constexpr int kW = 160;
constexpr int kH = 120;
constexpr float kNear = 0.1f, kFar = 20.f;

Mat4 to_mat4(const glm::mat4& m) {
    Mat4 out;
    std::memcpy(out.m, glm::value_ptr(m), sizeof out.m);
    return out;
}

// Eye at z = 5 looking at the origin down −z, 45° vertical field of view.
SplatView test_view(float radius, int width = kW, int height = kH) {
    SplatView v;
    v.view = to_mat4(glm::lookAt(glm::vec3(0, 0, 5), glm::vec3(0), glm::vec3(0, 1, 0)));
    v.projection = to_mat4(glm::perspective(
        glm::radians(45.f), static_cast<float>(width) / static_cast<float>(height), kNear, kFar));
    v.width = width;
    v.height = height;
    v.radius = radius;
    v.light_dir = {0.f, 0.f, 1.f};
    v.ambient = 0.25f;
    return v;
}

TEST(SplatMath, DepthKeysOrderAsTheFloatsDo) {
    const float values[] = {-INFINITY, -3.5f, -1e-30f,   -0.f, 0.f, 1e-30f,
                            0.25f,     0.5f,  0.999999f, 1.f,  2.f, INFINITY};
    for (std::size_t i = 0; i + 1 < std::size(values); ++i) {
        EXPECT_LE(order_key(values[i]), order_key(values[i + 1])) << values[i];
        if (values[i] != values[i + 1]) {
            EXPECT_LT(order_key(values[i]), order_key(values[i + 1]));
        }
    }
    for (const float d : {0.f, 0.125f, 0.7f, 1.f}) {
        EXPECT_EQ(key_depth(make_key(d, 1234u)), d);
        EXPECT_EQ(static_cast<std::uint32_t>(make_key(d, 1234u)), 1234u);
    }
    // The nearer depth wins whatever the payload; empty loses to everything.
    EXPECT_LT(make_key(0.4f, 0xffffffffu), make_key(0.5f, 0u));
    EXPECT_LT(make_key(1.f, 0xffffffffu), kEmptyKey);
    EXPECT_EQ(resolve_color(kEmptyKey), 0u);
    EXPECT_EQ(resolve_depth(kEmptyKey), 1.f);
}

TEST(SplatMath, PackRoundsLikeUnormColours) {
    EXPECT_EQ(pack_rgba8(1.f, 0.f, 0.5f, 1.f), 0xff8000ffu);
    EXPECT_EQ(pack_rgba8(2.f, -1.f, 0.f, 0.f), 0x000000ffu);  // clamped to 0..1
}

TEST(SplatMath, ProjectsToTheCentreWithTheSpriteSizeOfTheGlShader) {
    const SplatView v = test_view(0.1f);
    const SplatSphere s = project_sphere(v, 0.f, 0.f, 0.f);
    ASSERT_TRUE(s.visible);
    EXPECT_FLOAT_EQ(s.cx, kW / 2.f);
    EXPECT_FLOAT_EQ(s.cy, kH / 2.f);
    // particles.vert: the diameter r P[1][1] H / w, with w = 5 at the origin.
    const float p11 = 1.f / std::tan(glm::radians(45.f) / 2.f);
    EXPECT_NEAR(s.size, 0.1f * p11 * kH / 5.f, 1e-4f);
    // Pixel centres inside [c - size/2, c + size/2).
    EXPECT_LE(s.cx - s.size / 2, s.x0 + 0.5f);
    EXPECT_GT(s.cx - s.size / 2, s.x0 - 0.5f);
    EXPECT_LT(s.x1 + 0.5f, s.cx + s.size / 2);
    EXPECT_GE(s.x1 + 1.5f, s.cx + s.size / 2);
    EXPECT_FALSE(s.one_pixel);
    // Up in the world is up in the window (row 0 at the bottom).
    EXPECT_GT(project_sphere(v, 0.f, 1.f, 0.f).cy, s.cy);
}

TEST(SplatMath, CullsBehindTheEyeBeforeTheNearPlaneAndBeyondTheFarPlane) {
    const SplatView v = test_view(0.1f);
    EXPECT_FALSE(project_sphere(v, 0.f, 0.f, 6.f).visible);                 // behind the eye
    EXPECT_FALSE(project_sphere(v, 0.f, 0.f, 5.f).visible);                 // at the eye
    EXPECT_FALSE(project_sphere(v, 0.f, 0.f, 5.f - kNear / 2).visible);     // before near
    EXPECT_TRUE(project_sphere(v, 0.f, 0.f, 5.f - kNear * 2).visible);      // just past near
    EXPECT_FALSE(project_sphere(v, 0.f, 0.f, 5.f - kFar * 1.01f).visible);  // beyond far
    EXPECT_FALSE(project_sphere(v, NAN, 0.f, 0.f).visible);
}

TEST(SplatMath, ClipsSquaresToTheTargetAndCullsThoseOutside) {
    const SplatView v = test_view(0.3f);
    // Centre just left of the view: part of the sphere still shows, clipped at column 0.
    const SplatSphere left = project_sphere(v, -2.85f, 0.f, 0.f);
    ASSERT_TRUE(left.visible);
    EXPECT_LT(left.cx, 0.f);
    EXPECT_EQ(left.x0, 0);
    EXPECT_GE(left.x1, 0);
    EXPECT_FALSE(project_sphere(v, -6.f, 0.f, 0.f).visible);  // wholly outside
    EXPECT_FALSE(project_sphere(v, 0.f, 8.f, 0.f).visible);
}

TEST(SplatMath, HugeSpheresAreCappedAndClippedTinyOnesAreOnePixel) {
    // A 1 m sphere 0.3 m in front of the eye: thousands of pixels across.
    const SplatView big = test_view(1.f, 640, 480);
    const SplatSphere s = project_sphere(big, 0.f, 0.f, 4.7f);
    ASSERT_TRUE(s.visible);
    EXPECT_EQ(s.size, 2.f * kMaxSplatRadiusPx);
    EXPECT_EQ(s.x0, 0);
    EXPECT_EQ(s.y0, 0);
    EXPECT_EQ(s.x1, 639);
    EXPECT_EQ(s.y1, 479);

    const SplatView tiny = test_view(1e-4f);
    const SplatSphere t = project_sphere(tiny, 0.013f, -0.021f, 0.f);
    ASSERT_TRUE(t.visible);
    EXPECT_EQ(t.size, 1.f);  // GL's smallest point
    EXPECT_TRUE(t.one_pixel);
    EXPECT_EQ(t.x0, static_cast<int>(std::floor(t.cx)));
    EXPECT_EQ(t.y0, static_cast<int>(std::floor(t.cy)));
    // As the GL sprite: the one pixel shows the sphere when its centre lies in the disc.
    const float dx = t.x0 + 0.5f - t.cx, dy = t.y0 + 0.5f - t.cy;
    const std::uint64_t key = splat_fragment(tiny, t, t.x0, t.y0, 1.f, 1.f, 1.f, 1.f);
    EXPECT_EQ(key != kEmptyKey, 4.f * (dx * dx + dy * dy) <= 1.f);
    // Centred on a pixel: written, lit as the sphere's front.
    const glm::vec4 c = glm::inverse(glm::make_mat4(tiny.view.m)) *
                        glm::inverse(glm::make_mat4(tiny.projection.m)) *
                        glm::vec4((80.5f / kW) * 2.f - 1.f, (60.5f / kH) * 2.f - 1.f, 0.5f, 1.f);
    const glm::vec3 on_pixel = glm::vec3(c) / c.w;
    const SplatSphere centred = project_sphere(tiny, on_pixel.x, on_pixel.y, on_pixel.z);
    ASSERT_TRUE(centred.one_pixel);
    EXPECT_EQ(centred.x0, 80);
    EXPECT_EQ(centred.y0, 60);
    EXPECT_EQ(resolve_color(splat_fragment(tiny, centred, 80, 60, 1.f, 1.f, 1.f, 1.f)),
              0xffffffffu);
}

int covered(const std::vector<std::uint64_t>& keys) {
    return static_cast<int>(
        std::count_if(keys.begin(), keys.end(), [](std::uint64_t k) { return k != kEmptyKey; }));
}

std::uint64_t key_at(const std::vector<std::uint64_t>& keys, int x, int y) {
    return keys[static_cast<std::size_t>(y) * kW + x];
}

TEST(SplatReference, NoParticlesLeaveEveryPixelEmpty) {
    const auto keys = splat_reference({}, {}, test_view(0.1f));
    ASSERT_EQ(keys.size(), static_cast<std::size_t>(kW) * kH);
    EXPECT_EQ(covered(keys), 0);
}

TEST(SplatReference, OneParticleIsALitDiscWithTheImpostorsDepth) {
    const SplatView v = test_view(0.2f);
    const std::vector<sim::Float4> pos{{0.f, 0.f, 0.f, 0.2f}};
    const std::vector<sim::Float4> col{{0.8f, 0.4f, 0.2f, 1.f}};
    const auto keys = splat_reference(pos, col, v);
    const SplatSphere s = project_sphere(v, 0.f, 0.f, 0.f);
    const float r_px = s.size / 2.f;
    // A disc: about π r² pixels, all inside the square.
    EXPECT_NEAR(covered(keys), 3.14159f * r_px * r_px, 2.f * 3.14159f * r_px);
    // The centre faces the eye and the light: full colour; its depth is the surface's nearest
    // point, as particles.frag writes it.
    const std::uint64_t centre = key_at(keys, kW / 2, kH / 2);
    ASSERT_NE(centre, kEmptyKey);
    // (Pixel centres lie half a pixel off the sphere's: within one step of 8 bits.)
    const std::uint32_t lit = resolve_color(centre), full = pack_rgba8(0.8f, 0.4f, 0.2f, 1.f);
    for (const int shift : {0, 8, 16})
        EXPECT_NEAR(static_cast<int>((lit >> shift) & 0xffu),
                    static_cast<int>((full >> shift) & 0xffu), 1)
            << shift;
    const glm::mat4 p =
        glm::perspective(glm::radians(45.f), static_cast<float>(kW) / kH, kNear, kFar);
    const glm::vec4 clip = p * glm::vec4(0.f, 0.f, -5.f + 0.2f, 1.f);
    EXPECT_NEAR(resolve_depth(centre), 0.5f * clip.z / clip.w + 0.5f, 1e-5f);
    // Towards the rim the normal turns from the light: darker, and deeper.
    const std::uint64_t rim = key_at(keys, kW / 2 + static_cast<int>(r_px * 0.9f), kH / 2);
    ASSERT_NE(rim, kEmptyKey);
    EXPECT_LT(resolve_color(rim) & 0xffu, resolve_color(centre) & 0xffu);
    EXPECT_GT(resolve_depth(rim), resolve_depth(centre));
    EXPECT_EQ(key_at(keys, 0, 0), kEmptyKey);
}

TEST(SplatReference, ANearParticleHidesAFarOneInEitherOrder) {
    const SplatView v = test_view(0.2f);
    const sim::Float4 near_pos{0.f, 0.f, 1.f, 0.2f}, far_pos{0.05f, 0.f, -1.f, 0.2f};
    const sim::Float4 red{1.f, 0.f, 0.f, 1.f}, blue{0.f, 0.f, 1.f, 1.f};
    for (const bool near_first : {true, false}) {
        SCOPED_TRACE(near_first ? "near first" : "far first");
        const std::vector<sim::Float4> pos =
            near_first ? std::vector{near_pos, far_pos} : std::vector{far_pos, near_pos};
        const std::vector<sim::Float4> col =
            near_first ? std::vector{red, blue} : std::vector{blue, red};
        const auto keys = splat_reference(pos, col, v);
        const std::uint32_t c = resolve_color(key_at(keys, kW / 2, kH / 2));
        EXPECT_GT(c & 0xffu, 200u);        // red
        EXPECT_EQ((c >> 16) & 0xffu, 0u);  // no blue
    }
}

TEST(SplatReference, ParticlesBeforeTheNearPlaneDrawNothing) {
    const SplatView v = test_view(0.2f);
    const std::vector<sim::Float4> pos{{0.f, 0.f, 5.f - kNear / 2, 0.2f}, {0.f, 0.f, 7.f, 0.2f}};
    const std::vector<sim::Float4> col(2, sim::Float4{1.f, 1.f, 1.f, 1.f});
    EXPECT_EQ(covered(splat_reference(pos, col, v)), 0);
}

}  // namespace
}  // namespace plab::render
