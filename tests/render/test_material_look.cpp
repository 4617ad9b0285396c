// The material look on the CPU (render/material_reference.h, the passes the CUDA kernels run):
// a liquid ball of beads reads as one smooth surface (normals against the analytic sphere's
// within 10° on 95% of its pixels, where the unfiltered beads miss it), the narrow-range
// filter keeps a step between two surfaces, spray where the liquid is one bead thin,
// occlusion darkens the crease where two grains touch and not their open faces, and a grain
// above a floor throws its shadow where the light map says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/material_reference.h"
#include "render/material_view.h"
#include "render/splat_renderer.h"

namespace plab::render {
namespace {

using sim::Float4;
using sim::Vec3;

struct Camera {
    RenderView view;
    SplatView splat;
};

// Eye at `eye` looking at `target`, 40° vertical field of view, w × h pixels.
Camera camera(glm::vec3 eye, glm::vec3 target, float radius, int w = 200, int h = 200) {
    Camera c;
    c.view.view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    c.view.projection = glm::perspective(glm::radians(40.f), float(w) / float(h), 0.05f, 20.f);
    c.view.viewport_height = float(h);
    c.splat = make_splat_view(c.view, Lighting{}, radius, w, h);
    return c;
}

std::vector<Float4> id_colours(std::size_t n) {
    std::vector<Float4> c(n);
    for (std::size_t i = 0; i < n; ++i)
        c[i] = {float(i % 7) / 7.f, float(i % 11) / 11.f, 0.5f, 1.f};
    return c;
}

// A drop of liquid as SPH leaves one: beads of radius r in shells 2r apart about the origin,
// the outer at R, each shell's beads spread evenly (a Fibonacci lattice) about 2r apart.
std::vector<Float4> liquid_ball(float R, float r) {
    std::vector<Float4> p;
    for (float shell = R; shell > r; shell -= 2.f * r) {
        const float area = 4.f * 3.14159265f * shell * shell;
        const int n = std::max(1, int(area / (2.f * r * 2.f * r * 0.866f)));
        for (int i = 0; i < n; ++i) {
            const float z = 1.f - (2.f * i + 1.f) / float(n);
            const float s = std::sqrt(std::max(0.f, 1.f - z * z));
            const float phi = 2.39996323f * float(i);
            p.push_back({shell * s * std::cos(phi), shell * s * std::sin(phi), shell * z, 0.f});
        }
    }
    return p;
}

// The share of the ball's covered pixels whose normal (`normal_of`) lies within 10° of the
// analytic sphere's (radius Rs about the origin, seen from the camera).
template <class NormalOf>
double share_within_10_degrees(const Camera& c, const MaterialImages& im, float Rs,
                               NormalOf normal_of) {
    const glm::vec3 centre = glm::vec3(c.view.view * glm::vec4(0, 0, 0, 1));
    int covered = 0, good = 0;
    for (int y = 0; y < c.splat.height; ++y)
        for (int x = 0; x < c.splat.width; ++x) {
            if (im.keys[std::size_t(y) * c.splat.width + x] == kEmptyKey) continue;
            ++covered;
            const Vec3 e = eye_point(c.splat, float(x), float(y), 1.f);
            const glm::vec3 dir = glm::normalize(glm::vec3(e.x, e.y, e.z));
            // The ray from the eye meets the sphere at t² − 2 t (d·c) + |c|² − Rs² = 0.
            const float b = glm::dot(dir, centre);
            const float disc = b * b - glm::dot(centre, centre) + Rs * Rs;
            if (disc < 0.f) continue;  // beyond the analytic silhouette: counts as wrong
            const glm::vec3 hit = dir * (b - std::sqrt(disc));
            const glm::vec3 truth = glm::normalize(hit - centre);
            const Vec3 n = normal_of(x, y);
            const float cosine = truth.x * n.x + truth.y * n.y + truth.z * n.z;
            if (cosine >= std::cos(glm::radians(10.f))) ++good;
        }
    EXPECT_GT(covered, 5000) << "the ball should cover thousands of pixels";
    return covered > 0 ? double(good) / covered : 0.0;
}

TEST(MaterialLook, ALiquidBallOfBeadsReadsAsOneSmoothSphere) {
    const float R = 0.1f, r = 0.004f;
    const std::vector<Float4> ball = liquid_ball(R, r);
    ASSERT_GT(ball.size(), 8000u);
    const Camera c = camera({0.15f, 0.2f, 0.5f}, {0, 0, 0}, r);
    const sim::Domain box{{-0.2f, -0.2f, -0.2f}, {0.2f, 0.2f, 0.2f}};
    const MaterialView m = make_material_view(c.splat, c.view, box, MaterialKind::Liquid);
    MaterialImages im = material_reference(ball, id_colours(ball.size()), m);
    const MaterialFrame f = im.frame();
    const float Rs = R + r;  // the beads' outer envelope
    const double smooth =
        share_within_10_degrees(c, im, Rs, [&](int x, int y) { return liquid_normal(m, f, x, y); });
    EXPECT_GE(smooth, 0.95) << "filtered normals within 10° of the sphere's";
    std::printf("within 10 degrees: filtered %.3f\n", smooth);
    // The beads themselves (each sphere's own normal) are bumps: most pixels miss by more.
    const double beads = share_within_10_degrees(c, im, Rs, [&](int x, int y) {
        return payload_normal(static_cast<std::uint32_t>(im.keys[std::size_t(y) * 200 + x]));
    });
    EXPECT_LT(beads, 0.5) << "the bead normals should not already pass";
    std::printf("within 10 degrees: bead normals %.3f\n", beads);
    // Thick in the middle, so the centre is water, not spray, and reads bluish.
    const MaterialPixel centre = im.pixels[100 * 200 + 100];
    ASSERT_NE(centre.rgba >> 24, 0u);
    EXPECT_GT(im.thickness[100 * 200 + 100], 0.1f);
    const int red = centre.rgba & 255, blue = (centre.rgba >> 16) & 255;
    EXPECT_GT(blue, red);
}

TEST(MaterialLook, TheDepthFilterKeepsAStepBetweenTwoSurfacesAndSmoothsWithinOne) {
    constexpr int N = 64;
    SplatView v;
    v.width = N;
    v.height = N;
    const glm::mat4 p = glm::perspective(glm::radians(40.f), 1.f, 0.05f, 20.f);
    std::memcpy(v.projection.m, &p[0][0], sizeof v.projection.m);
    v.radius = 0.01f;
    MaterialView m;
    m.splat = v;
    m.kind = MaterialKind::Liquid;
    m.reach_px_m = 8.f;  // 8 pixels of reach at 1 m (a pixel is 11 mm there)
    m.filter_range = 0.03f;
    // Left half at 1 m with a ±5 mm ripple, right half a separate surface at 1.5 m.
    std::vector<float> src(N * N), mid(N * N), out(N * N);
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x)
            src[y * N + x] = x < N / 2 ? 1.f + ((x & 1) ? 0.005f : -0.005f) : 1.5f;
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) material_filter(m, src.data(), mid.data(), x, y, true);
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) material_filter(m, mid.data(), out.data(), x, y, false);
    for (int y = 0; y < N; ++y) {
        for (int x = 4; x < N / 2 - 4; ++x) EXPECT_NEAR(out[y * N + x], 1.f, 0.0015f) << x;
        EXPECT_NEAR(out[y * N + N / 2 - 1], 1.f, 0.006f) << "the step's near side stays near";
        for (int x = N / 2; x < N; ++x) EXPECT_FLOAT_EQ(out[y * N + x], 1.5f) << x;
    }
    // A slope stays a slope: a plane tilted 60° from the view keeps its depth, edges included.
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) src[y * N + x] = 1.f + 0.0113f * std::sqrt(3.f) * float(x - 20);
    for (int y = 0; y < N; ++y)
        for (int x = 40; x < N; ++x) src[y * N + x] = 0.f;  // empty beyond the flank's end
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) material_filter(m, src.data(), out.data(), x, y, true);
    for (int x = 0; x < 40; ++x) EXPECT_NEAR(out[5 * N + x], src[5 * N + x], 1e-4f) << x;
    // Empty pixels stay empty and are never sampled.
    src.assign(N * N, 0.f);
    src[3 * N + 10] = 1.f;
    material_filter(m, src.data(), out.data(), 10, 3, true);
    material_filter(m, src.data(), out.data(), 11, 3, true);
    EXPECT_FLOAT_EQ(out[3 * N + 10], 1.f);
    EXPECT_FLOAT_EQ(out[3 * N + 11], 0.f);
}

TEST(MaterialLook, ALoneDropletIsSpray) {
    const float r = 0.01f;
    const std::vector<Float4> drop{{0, 0, 0, 0}};
    const Camera c = camera({0, 0, 0.3f}, {0, 0, 0}, r, 64, 64);
    const MaterialView m =
        make_material_view(c.splat, c.view, {{-1, -1, -1}, {1, 1, 1}}, MaterialKind::Liquid);
    const MaterialImages im = material_reference(drop, id_colours(1), m);
    const MaterialPixel p = im.pixels[32 * 64 + 32];
    ASSERT_NE(p.rgba >> 24, 0u);
    const int red = p.rgba & 255, green = (p.rgba >> 8) & 255, blue = (p.rgba >> 16) & 255;
    EXPECT_GT(red, 170);  // white, not water's blue
    EXPECT_LT(std::abs(blue - red), 40);
    EXPECT_LT(std::abs(green - red), 40);
}

TEST(MaterialLook, OcclusionDarkensTheCreaseOfTwoTouchingGrainsAndNotTheirOpenFaces) {
    const float r = 0.05f;
    const std::vector<Float4> pair{{-r, 0, 0, 0}, {r, 0, 0, 0}};
    const Camera c = camera({0, 0, 0.6f}, {0, 0, 0}, r);
    const MaterialView m =
        make_material_view(c.splat, c.view, {{-1, -1, -1}, {1, 1, 1}}, MaterialKind::Grains, false);
    MaterialImages im = material_reference(pair, id_colours(2), m);
    const MaterialFrame f = im.frame();
    auto occlusion_at = [&](glm::vec3 world) {
        const glm::vec4 clip = c.view.projection * c.view.view * glm::vec4(world, 1.f);
        const int x = int((clip.x / clip.w * 0.5f + 0.5f) * 200.f);
        const int y = int((clip.y / clip.w * 0.5f + 0.5f) * 200.f);
        const std::uint64_t key = im.keys[std::size_t(y) * 200 + x];
        EXPECT_NE(key, kEmptyKey);
        const Vec3 p = eye_point(m.splat, float(x), float(y), im.dist[std::size_t(y) * 200 + x]);
        return grain_occlusion(m, f, x, y, p, payload_normal(static_cast<std::uint32_t>(key)));
    };
    // The front of the left grain, a point near the crease (20° from the contact, facing the
    // camera a little), and the far side of the left grain's rim.
    const float open = occlusion_at({-r, 0, r});
    const float a = glm::radians(20.f);
    const float crease = occlusion_at({-r + r * std::cos(a), 0, r * std::sin(a)});
    const float rim = occlusion_at({-r - r * std::cos(a), 0, r * std::sin(a)});
    EXPECT_GE(open, 0.99f);
    EXPECT_GE(rim, 0.99f);
    EXPECT_LE(crease, open - 0.2f);
}

TEST(MaterialLook, AGrainAboveAFloorShadowsTheFloorWhereTheLightMapSays) {
    const float r = 0.01f;
    std::vector<Float4> p;
    for (int i = -30; i <= 30; ++i)  // a floor of grains at y = 0, 1.2 m square
        for (int k = -30; k <= 30; ++k) p.push_back({2.f * r * i, 0.f, 2.f * r * k, 0.f});
    const Vec3 ball{0.f, 0.25f, 0.f};
    for (int i = -3; i <= 3; ++i)  // a ball of grains 0.25 m above it
        for (int j = -3; j <= 3; ++j)
            for (int k = -3; k <= 3; ++k)
                if (i * i + j * j + k * k <= 9)
                    p.push_back(
                        {ball.x + 2.f * r * i, ball.y + 2.f * r * j, ball.z + 2.f * r * k, 0});
    const Camera c = camera({0, 1.f, 1.2f}, {0, 0, 0}, r);
    const sim::Domain box{{-0.65f, -0.05f, -0.65f}, {0.65f, 0.4f, 0.65f}};
    const MaterialView m = make_material_view(c.splat, c.view, box, MaterialKind::Grains);
    ASSERT_GT(m.shadow_size, 0);
    MaterialImages im = material_reference(p, id_colours(p.size()), m);
    const MaterialFrame f = im.frame();
    // Where the sun's ray through the ball's centre meets the floor's top (y = r), and a
    // point of the floor as far again to the other side.
    const float t = (ball.y - r) / m.sun_world.y;
    const Vec3 shade = ball - m.sun_world * t;
    const Vec3 under{shade.x, r + 0.5f * r, shade.z};
    const Vec3 open{-shade.x, r + 0.5f * r, -shade.z};
    EXPECT_LT(grain_lit(m, f, under), 0.2f);
    EXPECT_FLOAT_EQ(grain_lit(m, f, open), 1.f);
    EXPECT_FLOAT_EQ(grain_lit(m, f, ball + m.sun_world * (0.07f + 0.5f * r)), 1.f)
        << "the ball's own sunny cap is lit";
}

}  // namespace
}  // namespace plab::render

namespace plab::render {
namespace {

// Two triangles of a square of side 2h at height y, wound to face up (+y), or down.
std::vector<sim::GeoTriangle> floor_square(float y, float h, bool up) {
    const Vec3 a{-h, y, -h}, b{h, y, -h}, c{h, y, h}, d{-h, y, h};
    // Counter-clockwise seen from above: a, d, c and a, c, b face +y.
    if (up) return {{a, d, c, 0, 3, 2, 0}, {a, c, b, 0, 2, 1, 0}};
    return {{a, c, d, 0, 2, 3, 0}, {a, b, c, 0, 1, 2, 0}};
}

int luminance(std::uint32_t rgba) {
    return int(rgba & 255) + int((rgba >> 8) & 255) + int((rgba >> 16) & 255);
}

TEST(MaterialLook, ABodyIsShadedAndTakesTheGrainsShadow) {
    const float r = 0.01f;
    std::vector<Float4> ball;
    for (int i = -3; i <= 3; ++i)
        for (int j = -3; j <= 3; ++j)
            for (int k = -3; k <= 3; ++k)
                if (i * i + j * j + k * k <= 9)
                    ball.push_back({2.f * r * i, 0.25f + 2.f * r * j, 2.f * r * k, 0});
    const std::vector<sim::GeoTriangle> ground = floor_square(0.f, 0.6f, true);
    const Camera c = camera({0, 1.f, 1.2f}, {0, 0, 0}, r);
    const MaterialView m = make_material_view(
        c.splat, c.view, {{-0.65f, -0.05f, -0.65f}, {0.65f, 0.4f, 0.65f}}, MaterialKind::Grains);
    const MaterialImages im = material_reference(ball, id_colours(ball.size()), m, ground);
    auto pixel_of = [&](Vec3 w) {
        const glm::vec4 clip = c.view.projection * c.view.view * glm::vec4(w.x, w.y, w.z, 1.f);
        const int x = int((clip.x / clip.w * 0.5f + 0.5f) * 200.f);
        const int y = int((clip.y / clip.w * 0.5f + 0.5f) * 200.f);
        return std::size_t(y) * 200 + x;
    };
    const float t = 0.25f / m.sun_world.y;
    const Vec3 shade = Vec3{0, 0.25f, 0} - m.sun_world * t;  // the ball's shadow on the ground
    const Vec3 open{-shade.x, 0.f, -shade.z};
    const std::size_t in_shade = pixel_of(shade), in_sun = pixel_of(open);
    ASSERT_NE(im.keys[in_shade], kEmptyKey);
    ASSERT_TRUE(payload_is_body(static_cast<std::uint32_t>(im.keys[in_shade])));
    ASSERT_TRUE(payload_is_body(static_cast<std::uint32_t>(im.keys[in_sun])));
    EXPECT_LT(luminance(im.pixels[in_shade].rgba), luminance(im.pixels[in_sun].rgba) * 6 / 10);
    // The ball is drawn over the ground it stands above.
    EXPECT_FALSE(payload_is_body(static_cast<std::uint32_t>(im.keys[pixel_of({0, 0.25f, 0})])));
}

TEST(MaterialLook, ABodyIsDrawnWhereItsParticleSideFacesTheEyeAndHidesWhatLiesBehind) {
    const float r = 0.02f;
    const std::vector<Float4> bead{{0, 0, 0, 0}};
    // A wall between the eye (above) and the bead: facing up it hides the bead; facing down
    // (its particles below it, as a tank's near wall seen from outside) it is left out.
    const Camera c = camera({0, 1.f, 0.001f}, {0, 0, 0}, r, 64, 64);
    const MaterialView m =
        make_material_view(c.splat, c.view, {{-1, -1, -1}, {1, 1, 1}}, MaterialKind::Liquid);
    const std::size_t centre = 32 * 64 + 32;
    const MaterialImages up =
        material_reference(bead, id_colours(1), m, floor_square(0.3f, 0.2f, true));
    const MaterialImages down =
        material_reference(bead, id_colours(1), m, floor_square(0.3f, 0.2f, false));
    ASSERT_NE(up.keys[centre], kEmptyKey);
    EXPECT_TRUE(payload_is_body(static_cast<std::uint32_t>(up.keys[centre])));
    EXPECT_NEAR(key_depth(up.keys[centre]), 0.7f, 0.002f);
    ASSERT_NE(down.keys[centre], kEmptyKey);
    EXPECT_FALSE(payload_is_body(static_cast<std::uint32_t>(down.keys[centre])));
    // The liquid's filter never takes the wall's depth: the wall's pixels stay out of it.
    EXPECT_EQ(up.dist[centre], 0.f);
    EXPECT_NE(up.pixels[centre].rgba >> 24, 0u);
}

}  // namespace
}  // namespace plab::render
