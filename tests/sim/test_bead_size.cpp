// Beads of different sizes (Params::radius_spread, sim/model/bead_size.h) on the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/bead_size.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"

namespace plab::sim {
namespace {

Params spread_params(float spread) {
    Params p = preset_params(Preset::GlassBeads);
    p.contact = static_cast<int>(ContactLaw::Frictional);
    p.radius_spread = spread;
    p.substeps = 1;
    p.collider_radius = 0.f;
    return p;
}

TEST(BeadSize, DeviationsFillTheSpreadAndRepeat) {
    float lo = 1.f, hi = -1.f;
    double sum = 0;
    const int n = 20000;
    for (int k = 0; k < n; ++k) {
        const float w = bead_deviation(static_cast<uint64_t>(k), 3, 0.2f);
        ASSERT_GE(w, -0.2f);
        ASSERT_LE(w, 0.2f);
        EXPECT_EQ(w, bead_deviation(static_cast<uint64_t>(k), 3, 0.2f));
        lo = std::min(lo, w);
        hi = std::max(hi, w);
        sum += w;
    }
    EXPECT_LT(lo, -0.19f);
    EXPECT_GT(hi, 0.19f);
    EXPECT_NEAR(sum / n, 0.0, 0.005);                                   // uniform, centred
    EXPECT_NE(bead_deviation(7, 3, 0.2f), bead_deviation(7, 4, 0.2f));  // the seed matters
    EXPECT_EQ(bead_deviation(7, 3, 0.f), 0.f);
}

TEST(BeadSize, OnlyTheFrictionalLawTakesASpread) {
    Params p = spread_params(0.2f);
    EXPECT_NO_THROW(validate(p));
    p.contact = static_cast<int>(ContactLaw::Classic);
    EXPECT_THROW(validate(p), Error);
    Params sph = preset_params(Preset::Water);
    sph.radius_spread = 0.1f;
    EXPECT_THROW(validate(sph), Error);
    // The grid's cells hold the largest pair.
    EXPECT_FLOAT_EQ(interaction_range(spread_params(0.2f)), 2.4f * p.radius);
}

// Two beads side by side in free space: they touch when their centres are closer than the
// sum of their own radii, not two nominal radii.
TEST(BeadSize, BeadsTouchAtTheSumOfTheirOwnRadii) {
    Params p = spread_params(0.2f);
    p.gravity_x = p.gravity_y = p.gravity_z = 0.f;
    const float r = p.radius;
    InitialState init;
    init.domain = {{-20 * r, -20 * r, -20 * r}, {20 * r, 20 * r, 20 * r}};
    init.grid = scene_grid(init.domain, p);
    // Radii 1.2 r and 1.1 r, 2.2 r apart: apart for equal beads, overlapping by 0.1 r here.
    init.pos = {{0.f, 0.f, 0.f, 0.2f}, {2.2f * r, 0.f, 0.f, 0.1f}};
    init.vel = {{}, {}};
    CpuSimulator sim;
    sim.reset(init, p);
    sim.step(p);
    const Snapshot s = sim.download();
    EXPECT_LT(s.vel[0].x, 0.f);  // pushed apart
    EXPECT_GT(s.vel[1].x, 0.f);
    // Equal momenta, so the lighter (smaller) bead moves faster by the volume ratio.
    const float m0 = bead_volume_ratio(s.pos[0]), m1 = bead_volume_ratio(s.pos[1]);
    EXPECT_NEAR(m0 * s.vel[0].x, -m1 * s.vel[1].x, 1e-6f * std::abs(m1 * s.vel[1].x));
    EXPECT_GT(s.vel[1].x, -s.vel[0].x);
    // The sizes ride along with the positions.
    EXPECT_EQ(s.pos[0].w, 0.2f);
    EXPECT_EQ(s.pos[1].w, 0.1f);

    // The same pair as equal beads does not touch.
    Params equal = spread_params(0.f);
    equal.gravity_x = equal.gravity_y = equal.gravity_z = 0.f;
    init.pos[0].w = init.pos[1].w = 0.f;
    init.grid = scene_grid(init.domain, equal);
    sim.reset(init, equal);
    sim.step(equal);
    EXPECT_EQ(sim.download().vel[0].x, 0.f);
}

// A bead rests on the floor at its own radius, and a scene gives its beads their sizes.
TEST(BeadSize, ABlockOfMixedBeadsSettlesOnTheFloorAtTheirOwnRadii) {
    Params p = spread_params(0.2f);
    const float r = p.radius;
    Scene scene;
    scene.domain = {{0.f, 0.f, 0.f}, {12 * r, 40 * r, 12 * r}};
    scene.blocks.push_back(
        {BlockShape::Box, {3 * r, 3 * r, 3 * r}, {9 * r, 9 * r, 9 * r}, 2.6f * r, 0, {}});
    const std::size_t n = scene_capacity(scene);
    InitialState init = build_initial_state(scene, p, n);
    float lo = 1.f, hi = -1.f;
    for (const Float4& q : init.pos) {
        lo = std::min(lo, q.w);
        hi = std::max(hi, q.w);
    }
    EXPECT_LT(lo, -0.05f);
    EXPECT_GT(hi, 0.05f);
    CpuSimulator sim;
    sim.reset(init, p);
    for (int i = 0; i < 30000; ++i) sim.step(p);
    const Snapshot s = sim.download();
    EXPECT_EQ(sim.stats(p).non_finite, 0u);
    EXPECT_LT(sim.stats(p).max_speed, 0.05f);
    int on_floor = 0;
    for (const Float4& q : s.pos) {
        const float own = bead_radius(q, p);
        EXPECT_GT(q.y, 0.95f * own);  // no bead sinks into the floor past its own radius
        if (q.y < 1.05f * own) ++on_floor;
    }
    EXPECT_GT(on_floor, 0);
}

}  // namespace
}  // namespace plab::sim
