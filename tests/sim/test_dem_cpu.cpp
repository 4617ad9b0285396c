// Whole DEM steps on the CPU backend: momentum, restitution against the spring–dashpot
// prediction, and a settling pile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/dem_theory.h"
#include "sim/model/presets.h"
#include "sim/run/divergence.h"
#include "sim/test_helpers.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

Params free_space_params() {
    Params p = preset_params(Preset::Classic);
    p.gravity_x = p.gravity_y = p.gravity_z = 0.f;
    p.global_damping = 1.f;
    p.collider_radius = 0.f;
    return p;
}

struct Momentum {
    double x = 0, y = 0, z = 0, magnitude_sum = 0;
};

Momentum momentum(const Snapshot& s, float mass) {
    Momentum m;
    for (const Float4& v : s.vel) {
        m.x += mass * double(v.x);
        m.y += mass * double(v.y);
        m.z += mass * double(v.z);
        m.magnitude_sum +=
            mass * std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
    }
    return m;
}

TEST(DemCpu, PairForcesConserveMomentum) {
    Params p = free_space_params();
    p.attraction = 0.01f;
    const Domain far{{-3, -3, -3}, {3, 3, 3}};  // checked below: no particle reaches a wall
    // A jittered lattice packed slightly tighter than touching: every particle starts in
    // contact with its neighbours.
    Scene scene;
    scene.domain = far;
    scene.blocks.push_back({BlockShape::Box,
                            {-0.2f, -0.2f, -0.2f},
                            {0.2f, 0.2f, 0.2f},
                            1.9f * p.radius,
                            0.2f * p.radius,
                            {}});
    InitialState init = build_initial_state(scene, p, scene_capacity(scene));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.01f, 0.01f);
    for (auto& v : init.vel) v = {u(rng), u(rng), u(rng), 0.f};
    CpuSimulator sim;
    sim.reset(init, p);
    const Momentum before = momentum(sim.download(), p.mass);
    for (int i = 0; i < 200; ++i) sim.step(p);
    const Snapshot after_state = sim.download();
    const Momentum after = momentum(after_state, p.mass);
    for (const Float4& x : after_state.pos)
        ASSERT_LT(std::max({std::fabs(x.x), std::fabs(x.y), std::fabs(x.z)}), 3.f - 2 * p.radius);
    // Float round-off only: pair forces cancel bit for bit, what drifts is the rounding of each
    // particle's sum. Measured 2.5e-9 of Σ m|v| after 200 steps; 1e-7 leaves room for other
    // compilers, while one one-sided pair force of a single step would already exceed it.
    const double tol = 1e-7 * before.magnitude_sum;
    EXPECT_NEAR(after.x, before.x, tol);
    EXPECT_NEAR(after.y, before.y, tol);
    EXPECT_NEAR(after.z, before.z, tol);
    // And something did happen: the cluster's particles collided.
    double moved = 0;
    for (std::size_t i = 0; i < init.vel.size(); ++i)
        moved += std::fabs(after_state.vel[i].x - init.vel[i].x);
    EXPECT_GT(moved, 1e-3);
}

// Head-on collision of two equal particles; returns the measured restitution.
double measure_restitution(const Params& p, float approach_speed) {
    const Domain far{{-1, -1, -1}, {1, 1, 1}};
    const float gap = 0.5f * p.radius;
    InitialState init = testing::state_from_positions(
        {{-p.radius - gap, 0, 0}, {p.radius + gap, 0, 0}}, far, p.radius);
    init.vel[0] = {0.5f * approach_speed, 0, 0, 0};
    init.vel[1] = {-0.5f * approach_speed, 0, 0, 0};
    CpuSimulator sim;
    sim.reset(init, p);
    for (int i = 0; i < 100000; ++i) {
        sim.step(p);
        const Snapshot s = sim.download();
        const float dist = s.pos[1].x - s.pos[0].x;
        const float rel = s.vel[1].x - s.vel[0].x;
        if (dist > 2.f * p.radius && rel > 0.f) return rel / approach_speed;
    }
    ADD_FAILURE() << "the particles never separated";
    return 0;
}

TEST(DemCpu, HeadOnRestitutionMatchesSpringDashpotPrediction) {
    Params p = free_space_params();
    p.mass = 1.f;
    p.spring = 1000.f;
    p.shear = 0.f;
    for (double e_target : {0.9, 0.5, 0.2}) {
        p.damping = static_cast<float>(damping_for_restitution(e_target, p.spring, p.mass));
        const double e_pred = predicted_restitution(p.spring, p.damping, p.mass);
        ASSERT_NEAR(e_pred, e_target, 1e-6);  // damping is stored as float
        // 200 steps per contact: semi-implicit Euler's energy error per contact is
        // O((ω₀dt)²) ≈ (π/200)² ≈ 2.5e-4 and the contact starts up to one step late, so the
        // measured value must agree to 1% (absolute).
        p.dt = static_cast<float>(contact_time(p.spring, p.damping, p.mass) / 200.0);
        EXPECT_NEAR(measure_restitution(p, 0.01f), e_pred, 0.01) << "e = " << e_target;
    }
}

TEST(DemCpu, RestitutionConvergesAsDtShrinks) {
    Params p = free_space_params();
    p.mass = 1.f;
    p.spring = 1000.f;
    p.shear = 0.f;
    p.damping = static_cast<float>(damping_for_restitution(0.5, p.spring, p.mass));
    const double e = predicted_restitution(p.spring, p.damping, p.mass);
    const double tc = contact_time(p.spring, p.damping, p.mass);
    p.dt = static_cast<float>(tc / 20);
    const double coarse = std::fabs(measure_restitution(p, 0.01f) - e);
    p.dt = static_cast<float>(tc / 400);
    const double fine = std::fabs(measure_restitution(p, 0.01f) - e);
    EXPECT_LT(coarse, 0.1);  // even at the preset's t_c/20 the error stays small
    EXPECT_LT(fine, coarse);
}

TEST(DemCpu, PileSettlesInsideTheBox) {
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 10000;
    const Scene scene = preset_scene(Preset::Classic, n, p);
    CpuSimulator sim;
    sim.reset(build_initial_state(scene, p, n), p);
    double peak_energy = 0;
    for (int i = 0; i < 2000; ++i) {
        sim.step(p);
        if (i % 100 == 99) peak_energy = std::max(peak_energy, sim.stats(p).kinetic_energy);
    }
    const SimStats st = sim.stats(p);
    EXPECT_EQ(st.non_finite, 0u);
    EXPECT_GT(peak_energy, 0.0);
    EXPECT_LT(st.kinetic_energy, 0.05 * peak_energy) << "the pile should have come to rest";
    const Snapshot s = sim.download();
    const Domain& d = scene.domain;
    const float r = p.radius;
    for (const Float4& x : s.pos) {
        ASSERT_GE(x.x, d.min.x + r);
        ASSERT_LE(x.x, d.max.x - r);
        ASSERT_GE(x.y, d.min.y + r);
        ASSERT_LE(x.y, d.max.y - r);
        ASSERT_GE(x.z, d.min.z + r);
        ASSERT_LE(x.z, d.max.z - r);
    }
}

// Above the sample's size the classic box grows sideways, never deeper (presets.h); at a
// radius of 1/16 that rule starts at 4,096 particles, so the CPU can run it for long.
TEST(DemCpu, ClassicBeyondTheSamplesSizeStaysSound) {
    Params p = preset_params(Preset::Classic);
    p.radius = 1.f / 16;
    const std::size_t n = 6000;
    CpuSimulator sim;
    sim.reset(build_initial_state(preset_scene(Preset::Classic, n, p), p, n), p);
    for (int i = 0; i < 2000; ++i) {
        sim.step(p);
        if (i % 250 == 249) {
            ASSERT_EQ(divergence_reason(sim.stats(p), p), "") << "step " << i;
        }
    }
}

TEST(DemCpu, ScatterWithAtomicsMatchesTheGather) {
    // The same pair forces, each pair computed once and added to both particles: only the
    // order of the float sums differs, so after a few steps the states agree to rounding.
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 8000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    CpuSimulator gather, scatter;
    SimulatorOptions o;
    o.scatter_forces = true;
    scatter.set_options(o);
    gather.reset(init, p);
    scatter.reset(init, p);
    for (int i = 0; i < 10; ++i) {
        gather.step(p);
        scatter.step(p);
    }
    const Snapshot a = gather.download(), b = scatter.download();
    EXPECT_LT(test::max_position_axis_difference(a, b), 1e-3 * p.radius);
    EXPECT_GT(test::max_distance(a.pos, init.pos), 1e-4) << "the particles should have moved";
}

// Largest single-axis position difference (m) between two simulators' states.
double max_position_difference(Simulator& a, Simulator& b) {
    return test::max_position_axis_difference(a.download(), b.download());
}

TEST(DemCpu, UnsortedMemoryGivesTheSamePhysicsAsSorted) {
    // Unsorted memory visits the same pairs in the same cell order, only read through the
    // index. From the same start the first step is identical bit for bit when forces are
    // gathered (with scatter, OpenMP threads add into a particle in whatever order they reach
    // it, so even two runs of one layout differ in the last bits); later the two
    // states lie in different orders, so particles inside a cell (ranked by memory order) are
    // summed in a different order and the results differ by rounding only.
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 8000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    for (bool scatter : {false, true}) {
        CpuSimulator sorted, unsorted;
        SimulatorOptions o;
        o.scatter_forces = scatter;
        sorted.set_options(o);
        o.sorted_memory = false;
        unsorted.set_options(o);
        sorted.reset(init, p);
        unsorted.reset(init, p);
        sorted.step(p);
        unsorted.step(p);
        const Snapshot a = sorted.download(), b = unsorted.download();
        // Gather: bit for bit. Scatter: within a few float roundings of the value.
        const auto same = [scatter](float x, float y) {
            return scatter ? std::fabs(x - y) <= 1e-5f * std::fabs(x) + 1e-12f : x == y;
        };
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_TRUE(same(a.pos[i].x, b.pos[i].x))
                << "particle " << i << ", scatter " << scatter;
            ASSERT_TRUE(same(a.pos[i].y, b.pos[i].y))
                << "particle " << i << ", scatter " << scatter;
            ASSERT_TRUE(same(a.vel[i].z, b.vel[i].z))
                << "particle " << i << ", scatter " << scatter;
        }
        for (int i = 0; i < 19; ++i) {
            sorted.step(p);
            unsorted.step(p);
        }
        EXPECT_LT(max_position_difference(sorted, unsorted), 1e-4 * p.radius)
            << "scatter " << scatter;
        EXPECT_EQ(unsorted.option_notes(), "");
        double moved = 0;
        const Snapshot s = unsorted.download();
        for (std::size_t i = 0; i < n; ++i)
            moved = std::max(moved, std::fabs(double(s.pos[i].y) - init.pos[i].y));
        EXPECT_GT(moved, 1e-4) << "the particles should have moved";
    }
}

TEST(DemCpu, UnsortedMemoryFallsBackToSortedForSphAndSaysSo) {
    // The SPH passes read the cell-ordered copy: unsorted is refused, with the reason.
    const Params p = preset_params(Preset::Water);
    const std::size_t n = 2000;
    const InitialState init = build_initial_state(preset_scene(Preset::Water, n, p), p, n);
    CpuSimulator sorted, asked;
    SimulatorOptions o;
    o.sorted_memory = false;
    asked.set_options(o);
    sorted.reset(init, p);
    asked.reset(init, p);
    for (int i = 0; i < 3; ++i) {
        sorted.step(p);
        asked.step(p);
    }
    EXPECT_EQ(max_position_difference(sorted, asked), 0.0);
    EXPECT_NE(asked.option_notes().find("DEM model only"), std::string::npos)
        << asked.option_notes();
    EXPECT_EQ(sorted.option_notes(), "");
}

TEST(DemCpu, PersistentKernelIsIgnoredOnTheCpu) {
    // A CUDA-only switch: the CPU backend steps exactly as without it.
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 2000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    CpuSimulator plain, asked;
    SimulatorOptions o;
    o.persistent_kernel = true;
    asked.set_options(o);
    plain.reset(init, p);
    asked.reset(init, p);
    for (int i = 0; i < 5; ++i) {
        plain.step(p);
        asked.step(p);
    }
    EXPECT_EQ(max_position_difference(plain, asked), 0.0);
    EXPECT_TRUE(asked.take_timings().back().has_stages);
}

TEST(DemCpu, InvalidStepParametersLeaveTheStateAlone) {
    Params p = preset_params(Preset::Classic);
    CpuSimulator sim;
    sim.reset(build_initial_state(preset_scene(Preset::Classic, 100, p), p, 100), p);
    const Snapshot before = sim.download();
    Params bad = p;
    bad.dt = std::nanf("");
    EXPECT_THROW(sim.step(bad), Error);
    bad = p;
    bad.dt = -0.1f;
    EXPECT_THROW(sim.step(bad), Error);
    const Snapshot after = sim.download();
    for (std::size_t i = 0; i < before.pos.size(); ++i) EXPECT_EQ(before.pos[i].y, after.pos[i].y);
}

}  // namespace
}  // namespace plab::sim
