// Scenes and presets: particle placement, capacity errors, the classic box growing with N.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/model/dem_theory.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"

namespace plab::sim {
namespace {

TEST(Scene, ClassicStartsLikeTheSampleLattice) {
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 65536;
    const InitialState s = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    ASSERT_EQ(s.pos.size(), n);
    EXPECT_FLOAT_EQ(s.domain.min.x, -1.f);
    EXPECT_FLOAT_EQ(s.domain.max.x, 1.f);
    // 41³ ≥ 65536: lattice 41 wide, x fastest, spacing 2r, starting at -1 + r, jitter 0.01 r.
    const float r = p.radius, jitter = 0.01f * r;
    for (std::size_t i :
         {std::size_t{0}, std::size_t{1}, std::size_t{41}, std::size_t{41 * 41}, n - 1}) {
        const float ix = i % 41, iy = (i / 41) % 41, iz = i / (41 * 41);
        EXPECT_NEAR(s.pos[i].x, -1.f + r + 2 * r * ix, jitter * 1.001f) << i;
        EXPECT_NEAR(s.pos[i].y, -1.f + r + 2 * r * iy, jitter * 1.001f) << i;
        EXPECT_NEAR(s.pos[i].z, -1.f + r + 2 * r * iz, jitter * 1.001f) << i;
    }
    EXPECT_EQ(s.grid.dim_x, 64);
}

TEST(Scene, ClassicBoxGrowsSidewaysKeepingTheSamplesDepth) {
    const Params p = preset_params(Preset::Classic);
    const Scene fits = preset_scene(Preset::Classic, 262144, p);  // 64³ fills [-1, 1]³ exactly
    EXPECT_FLOAT_EQ(fits.domain.max.x, 1.f);
    EXPECT_FLOAT_EQ(fits.domain.max.y, 1.f);
    // 2^20 = 128 × 64 × 128: the box grows to [-2, 2] in x and z and keeps y in [-1, 1].
    const Scene grown = preset_scene(Preset::Classic, 1048576, p);
    EXPECT_FLOAT_EQ(grown.domain.min.y, -1.f);
    EXPECT_FLOAT_EQ(grown.domain.max.y, 1.f);
    EXPECT_FLOAT_EQ(grown.domain.max.x, 0.5f * 128 * 2 * p.radius);
    EXPECT_FLOAT_EQ(grown.domain.max.z, grown.domain.max.x);
    const InitialState s = build_initial_state(grown, p, 1048576);
    EXPECT_EQ(s.grid.dim_x, 128);
    EXPECT_EQ(s.grid.dim_y, 64);
    EXPECT_EQ(s.pos.size(), 1048576u);
    float top = -1e9f;
    for (const Float4& q : s.pos) top = std::max(top, q.y);
    EXPECT_LE(top, 1.f);  // no particle starts above the sample's height

    // The same rule at any radius: 1/16 gives 16 layers, so 5000 particles form an
    // 18 × 16 × 18 slab in a box 2 high.
    Params big = p;
    big.radius = 1.f / 16;
    const Scene slab = preset_scene(Preset::Classic, 5000, big);
    EXPECT_FLOAT_EQ(slab.domain.max.y - slab.domain.min.y, 2.f);
    EXPECT_FLOAT_EQ(slab.domain.max.x, 0.5f * 18 * 2 * big.radius);
    EXPECT_EQ(scene_capacity(slab), 18u * 16u * 18u);
}

TEST(Scene, SameSceneStartsIdentically) {
    const Params p = preset_params(Preset::Granular);
    const Scene scene = preset_scene(Preset::Granular, 1000, p);
    const auto a = build_initial_state(scene, p, 1000), b = build_initial_state(scene, p, 1000);
    for (std::size_t i = 0; i < a.pos.size(); ++i) EXPECT_EQ(a.pos[i].x, b.pos[i].x);
}

TEST(Scene, GranularPresetUsesTheStableDtFormula) {
    const Params p = preset_params(Preset::Granular);
    EXPECT_NEAR(p.dt, stable_dt(p.spring, p.mass), 1e-9);
    EXPECT_NEAR(predicted_restitution(p.spring, p.damping, p.mass), 0.5, 1e-4);
    const InitialState s = build_initial_state(preset_scene(Preset::Granular, 5000, p), p, 5000);
    for (const Float4& x : s.pos) {  // the block starts inside the box
        EXPECT_GT(x.y, s.domain.min.y);
        EXPECT_LT(x.y, s.domain.max.y);
    }
}

TEST(Scene, TooManyParticlesIsAClearError) {
    const Params p;
    Scene scene;
    scene.name = "small";
    scene.domain = {{0, 0, 0}, {1, 1, 1}};
    scene.blocks.push_back({BlockShape::Box, {0, 0, 0}, {0.1f, 0.1f, 0.1f}, 0.05f, 0.f, {}});
    EXPECT_EQ(scene_capacity(scene), 8u);
    EXPECT_EQ(build_initial_state(scene, p, 8).pos.size(), 8u);
    try {
        build_initial_state(scene, p, 9);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at most 8 particles, 9 were asked for"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Scene, SphereBlockPlacesOnlyInsideTheSphere) {
    const Params p;
    Scene scene;
    scene.domain = {{-1, -1, -1}, {1, 1, 1}};
    scene.blocks.push_back(
        {BlockShape::Sphere, {-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}, 0.05f, 0.f, {}});
    const std::size_t n = scene_capacity(scene);
    // About the sphere's share of the 20³ lattice: π/6 ≈ 0.52.
    EXPECT_NEAR(static_cast<double>(n) / 8000.0, M_PI / 6.0, 0.03);
    for (const Float4& x : build_initial_state(scene, p, n).pos)
        EXPECT_LE(x.x * x.x + x.y * x.y + x.z * x.z, 0.25f + 1e-5f);
}

TEST(Scene, BadBlocksAreRejected) {
    const Params p;
    Scene scene;
    scene.name = "bad";
    scene.domain = {{0, 0, 0}, {1, 1, 1}};
    scene.blocks.push_back({BlockShape::Box, {0.5f, 0.5f, 0.5f}, {1.5f, 1.f, 1.f}, 0.1f, 0.f, {}});
    EXPECT_THROW(build_initial_state(scene, p, 1), Error);  // outside the domain
    scene.blocks[0].max = {1.f, 1.f, 1.f};
    scene.blocks[0].spacing = 0.f;
    EXPECT_THROW(build_initial_state(scene, p, 1), Error);  // no spacing
    Params bad = p;
    bad.radius = 0.f;
    scene.blocks[0].spacing = 0.1f;
    EXPECT_THROW(build_initial_state(scene, bad, 1), Error);  // radius 0
}

TEST(Scene, ZeroAndOneParticle) {
    const Params p = preset_params(Preset::Classic);
    EXPECT_TRUE(build_initial_state(preset_scene(Preset::Classic, 0, p), p, 0).pos.empty());
    EXPECT_EQ(build_initial_state(preset_scene(Preset::Classic, 1, p), p, 1).pos.size(), 1u);
}

}  // namespace
}  // namespace plab::sim
