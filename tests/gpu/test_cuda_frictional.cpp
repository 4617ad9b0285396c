// The frictional contact law on the CUDA backend against the CPU reference: a block slumping
// on the floor step by step (positions, rotations, contact slots), a pile that comes to rest and
// stays put over tens of thousands of steps, and a single sphere that rolls down an incline or is
// held on it by rolling resistance and its remembered wall contact; plain launches and CUDA graphs,
// with and without neighbour lists; and the deterministic mode repeating a run to the bit. Needs a
// CUDA device; where there is none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "sim/cpu/cpu_simulator.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/test_helpers.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

constexpr float kPi = 3.14159265f;

Params frictional_params() {
    Params p = preset_params(Preset::Granular);
    p.contact = static_cast<int>(ContactLaw::Frictional);
    p.substeps = 1;  // one step per call
    return p;
}

SimulatorOptions options(bool lists, bool graph) {
    SimulatorOptions o;
    o.neighbour_list = lists;
    o.graph = graph;
    return o;
}

std::string label(bool lists, bool graph) {
    return std::string(graph ? "graph" : "plain") + (lists ? ", lists" : ", grid");
}

float length(const Float4& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

// The distance (m) that `fraction` of the particles moved at most between two states (by id).
float moved_quantile(const Snapshot& a, const Snapshot& b, double fraction) {
    std::vector<float> d;
    for (std::size_t i = 0; i < a.pos.size(); ++i)
        d.push_back(std::max({std::abs(a.pos[i].x - b.pos[i].x), std::abs(a.pos[i].y - b.pos[i].y),
                              std::abs(a.pos[i].z - b.pos[i].z)}));
    std::sort(d.begin(), d.end());
    return d.empty() ? 0.f : d[std::min(d.size() - 1, std::size_t(fraction * double(d.size())))];
}

// What contact_info and the slots say, summed over the particles.
struct FrictionTotals {
    uint64_t contacts = 0, sliding = 0, overflowed = 0, slots_used = 0;
    float max_omega = 0;  // rad/s
};

FrictionTotals totals(const FrictionSnapshot& f) {
    FrictionTotals t;
    for (uint32_t info : f.contact_info) {
        t.contacts += word_contacts(info);
        t.sliding += word_sliding(info);
        t.overflowed += word_slotless(info) ? 1 : 0;
    }
    for (const ContactSlot& s : f.contacts) t.slots_used += s.partner != kFreeSlot ? 1 : 0;
    for (const Float4& w : f.omega) t.max_omega = std::max(t.max_omega, length(w));
    return t;
}

// Particles whose remembered partners are the same set on both backends, as a fraction.
double same_partners(const FrictionSnapshot& a, const FrictionSnapshot& b) {
    const std::size_t n = a.omega.size();
    std::size_t same = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::multiset<uint32_t> pa, pb;
        for (int k = 0; k < kContactSlots; ++k) {
            pa.insert(a.contacts[i * kContactSlots + k].partner);
            pb.insert(b.contacts[i * kContactSlots + k].partner);
        }
        same += pa == pb ? 1 : 0;
    }
    return n > 0 ? double(same) / double(n) : 0.0;
}

float height_95(const Snapshot& s) {
    std::vector<float> y;
    for (const Float4& q : s.pos) y.push_back(q.y);
    std::sort(y.begin(), y.end());
    return y[y.size() * 95 / 100];
}

class CudaFrictional : public test::CudaTest {};

#if PLAB_HAS_CUDA

// The granular preset's block set down on the floor: its lattice touches from the first step,
// and it slumps into a pile (contacts open, close and slide).
InitialState block_on_the_floor(const Params& p, std::size_t n) {
    InitialState init = build_initial_state(preset_scene(Preset::Granular, n, p), p, n);
    float lowest = init.domain.max.y;
    for (const Float4& q : init.pos) lowest = std::min(lowest, q.y);
    for (Float4& q : init.pos) q.y += init.domain.min.y + p.radius - lowest;
    return init;
}

TEST_F(CudaFrictional, ASlumpingBlockFollowsTheCpuStepByStep) {
    const Params p = frictional_params();
    const std::size_t n = 800;
    const InitialState init = block_on_the_floor(p, n);
    for (bool lists : {false, true}) {
        CpuSimulator cpu;
        cpu.set_options(options(lists, false));
        cpu.reset(init, p);
        // 1,000 steps (57 ms): some 800 contacts, the first slides. Later the slump's chaos
        // amplifies the different rounding and summation order (on the CPU, the grid and the
        // lists drift 0.1 radius apart by step 3,000).
        for (int s = 0; s < 1000; ++s) cpu.step(p);
        const Snapshot ref = cpu.download();
        const FrictionSnapshot ref_f = cpu.friction_snapshot();
        const FrictionTotals ref_t = totals(ref_f);
        ASSERT_EQ(ref_f.omega.size(), n);
        for (bool graph : {false, true}) {
            SCOPED_TRACE(label(lists, graph));
            cuda::CudaSimulator gpu(options(lists, graph));
            gpu.reset(init, p);
            EXPECT_TRUE(gpu.unsupported(p).empty()) << gpu.unsupported(p);
            for (int s = 0; s < 1000; ++s) gpu.step(p);
            EXPECT_EQ(gpu.list_stats().active, lists);
            const Snapshot got = gpu.download();
            const FrictionSnapshot f = gpu.friction_snapshot();
            ASSERT_EQ(f.omega.size(), n);
            const FrictionTotals t = totals(f);
            // The panel's summary reads the same words.
            const FrictionStats summary = gpu.friction_stats();
            EXPECT_TRUE(summary.active);
            EXPECT_EQ(summary.particles, n);
            EXPECT_EQ(summary.contacts, t.contacts);
            EXPECT_EQ(summary.sliding, t.sliding);
            // The same contacts, rounded and summed in another order.
            const double gap = test::max_position_axis_difference(ref, got);
            EXPECT_LT(gap, 0.02f * p.radius);
            // Particles spin, and as on the CPU: all but a few within 5% of the fastest spin.
            // The few are pairs whose rolling spring sits at its limit, where rounding decides
            // between holding and slipping (the worst turned 1.1 of 11.5 rad/s apart, while
            // the positions agreed to 0.002 radii).
            std::vector<float> omega_gaps;
            for (std::size_t i = 0; i < n; ++i) {
                const Float4 d{f.omega[i].x - ref_f.omega[i].x, f.omega[i].y - ref_f.omega[i].y,
                               f.omega[i].z - ref_f.omega[i].z, 0.f};
                omega_gaps.push_back(length(d));
            }
            std::sort(omega_gaps.begin(), omega_gaps.end());
            const float omega_gap = omega_gaps.back();
            const float omega_gap_99 = omega_gaps[n * 99 / 100];
            EXPECT_GT(ref_t.max_omega, 1.f);
            EXPECT_GT(t.max_omega, 1.f);
            EXPECT_LT(omega_gap_99, 0.05f * ref_t.max_omega);
            EXPECT_LT(omega_gap, 0.2f * ref_t.max_omega);
            // Contacts remembered in the slots, the same partners as on the CPU.
            EXPECT_GT(t.slots_used, n / 2);
            EXPECT_EQ(t.overflowed, 0u);
            EXPECT_NEAR(double(t.contacts), double(ref_t.contacts), 0.02 * ref_t.contacts);
            EXPECT_NEAR(double(t.slots_used), double(ref_t.slots_used), 0.02 * ref_t.slots_used);
            EXPECT_GT(same_partners(ref_f, f), 0.98);
            std::printf(
                "%s: gap %.2g r, omega gap %.2g (99%%: %.2g) of %.3g rad/s, %llu contacts "
                "(CPU %llu), %llu slots (CPU %llu)\n",
                label(lists, graph).c_str(), gap / p.radius, omega_gap, omega_gap_99,
                ref_t.max_omega, static_cast<unsigned long long>(t.contacts),
                static_cast<unsigned long long>(ref_t.contacts),
                static_cast<unsigned long long>(t.slots_used),
                static_cast<unsigned long long>(ref_t.slots_used));
        }
    }
}

// Beads of different sizes (radius_spread): each pair touches at the sum of its own radii and
// each bead kicks and spins with its own mass, on the device as on the CPU.
TEST_F(CudaFrictional, MixedBeadSizesFollowTheCpu) {
    Params p = frictional_params();
    p.radius_spread = 0.2f;
    p.damping *= 4.f;  // the landing settles instead of bouncing (restitution 0.5 bounces)
    const float r = p.radius;
    Scene scene;
    scene.domain = {{0.f, 0.f, 0.f}, {24 * r, 60 * r, 24 * r}};
    // Eight layers 2.5 r apart, the lowest on the floor: the largest pair reaches 2.4 r, so
    // nothing overlaps at the start, and the block closes its 0.1 r gaps from the floor up.
    scene.blocks.push_back(
        {BlockShape::Box, {4 * r, 0.f, 4 * r}, {20 * r, 20 * r, 20 * r}, 2.5f * r, 0.02f * r, {}});
    const std::size_t n = scene_capacity(scene);
    const InitialState init = build_initial_state(scene, p, n);
    for (bool lists : {false, true}) {
        CpuSimulator cpu;
        cpu.set_options(options(lists, false));
        cpu.reset(init, p);
        // 1,100 steps: about 450 contacts (none before step 200), most of the block touching.
        for (int s = 0; s < 1100; ++s) cpu.step(p);
        const Snapshot ref = cpu.download();
        const FrictionTotals ref_t = totals(cpu.friction_snapshot());
        SCOPED_TRACE(label(lists, false));
        cuda::CudaSimulator gpu(options(lists, false));
        gpu.reset(init, p);
        for (int s = 0; s < 1100; ++s) gpu.step(p);
        const Snapshot got = gpu.download();
        const FrictionTotals t = totals(gpu.friction_snapshot());
        EXPECT_GT(ref_t.contacts, n);  // the beads have landed and touch
        EXPECT_NEAR(double(t.contacts), double(ref_t.contacts), 0.02 * ref_t.contacts);
        const double gap = test::max_position_axis_difference(ref, got);
        EXPECT_LT(gap, 0.02f * r);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got.pos[i].w, init.pos[i].w);  // sizes kept
        std::printf("%s, mixed sizes: %zu beads, gap %.2g r, %llu contacts (CPU %llu)\n",
                    label(lists, false).c_str(), n, gap / r,
                    static_cast<unsigned long long>(t.contacts),
                    static_cast<unsigned long long>(ref_t.contacts));
    }
}

// A particle touched by more neighbours than the CUDA pass lists at a time (and than it has
// slots): every contact still counts, as on the CPU. Twenty beads pressed around one, one step.
TEST_F(CudaFrictional, ACrowdedParticleFeelsEveryContactAsOnTheCpu) {
    Params p = preset_params(Preset::GlassBeads);
    p.substeps = 1;
    p.collider_radius = 0.f;
    p.gravity_y = 0.f;
    InitialState init;
    init.domain = {{-0.1f, -0.1f, -0.1f}, {0.1f, 0.1f, 0.1f}};
    init.grid = scene_grid(init.domain, p);
    init.pos.push_back({0.f, 0.f, 0.f, 0.f});
    init.vel.push_back({0.01f, 0.f, 0.f, 0.f});
    // Spread over a sphere of 1.8 r (a golden-angle spiral), each moving its own way.
    const int crowd = 20;
    for (int k = 0; k < crowd; ++k) {
        const float y = 1.f - 2.f * (k + 0.5f) / crowd, ring = std::sqrt(1.f - y * y);
        const float a = 2.39996323f * k;
        const float d = 1.8f * p.radius;
        init.pos.push_back({d * ring * std::cos(a), d * y, d * ring * std::sin(a), 0.f});
        init.vel.push_back({0.f, 0.01f * std::sin(a), 0.01f * std::cos(a), 0.f});
    }
    for (bool lists : {false, true}) {
        SCOPED_TRACE(label(lists, false));
        CpuSimulator cpu;
        cpu.set_options(options(lists, false));
        cpu.reset(init, p);
        cpu.step(p);
        cuda::CudaSimulator gpu(options(lists, false));
        gpu.reset(init, p);
        gpu.step(p);
        const FrictionSnapshot ref_f = cpu.friction_snapshot(), f = gpu.friction_snapshot();
        ASSERT_EQ(word_contacts(ref_f.contact_info[0]), uint32_t(crowd));
        EXPECT_EQ(word_contacts(f.contact_info[0]), uint32_t(crowd));
        EXPECT_TRUE(word_slotless(f.contact_info[0]));  // twenty contacts, twelve slots
        const Snapshot ref = cpu.download(), got = gpu.download();
        for (std::size_t i = 0; i <= std::size_t(crowd); ++i) {
            SCOPED_TRACE(i);
            const float dv = std::max({std::abs(ref.vel[i].x - got.vel[i].x),
                                       std::abs(ref.vel[i].y - got.vel[i].y),
                                       std::abs(ref.vel[i].z - got.vel[i].z)});
            EXPECT_LT(dv, 1e-4f * length(ref.vel[i]) + 1e-7f) << length(ref.vel[i]);
        }
    }
}

TEST_F(CudaFrictional, APileComesToRestAndStaysPutAsOnTheCpu) {
    // The granular preset's block falls and spreads into a pile at rest (40,000 steps, 2.3 s;
    // tests/sim/test_dem_frictional.cpp), then stays put for 4,000 more steps: held by the
    // remembered tangential stretches. The classic law keeps flowing.
    const Params p = frictional_params();
    const std::size_t n = 500;
    const InitialState init = build_initial_state(preset_scene(Preset::Granular, n, p), p, n);
    constexpr int kPour = 40000, kHold = 4000;
    CpuSimulator cpu;
    cpu.reset(init, p);
    for (int s = 0; s < kPour; ++s) cpu.step(p);
    const Snapshot cpu_pile = cpu.download();
    const FrictionTotals cpu_t = totals(cpu.friction_snapshot());
    const SimStats cpu_stats = cpu.stats(p);
    ASSERT_LT(cpu_stats.max_speed, 0.02f);
    for (bool lists : {false, true}) {
        for (bool graph : {false, true}) {
            SCOPED_TRACE(label(lists, graph));
            cuda::CudaSimulator gpu(options(lists, graph));
            gpu.reset(init, p);
            for (int s = 0; s < kPour; ++s) gpu.step(p);
            const SimStats stats = gpu.stats(p);
            const Snapshot pile = gpu.download();
            const FrictionTotals t = totals(gpu.friction_snapshot());
            EXPECT_EQ(stats.non_finite, 0u);
            EXPECT_LT(stats.max_speed, 0.02f);
            // The same pile in the statistics (its grains differ: the impact is chaotic).
            EXPECT_NEAR(height_95(pile), height_95(cpu_pile), 0.1f * height_95(cpu_pile));
            EXPECT_NEAR(double(t.contacts), double(cpu_t.contacts), 0.1 * cpu_t.contacts);
            const double sliding = double(t.sliding) / double(std::max<uint64_t>(t.contacts, 1));
            const double cpu_sliding = double(cpu_t.sliding) / double(cpu_t.contacts);
            EXPECT_NEAR(sliding, cpu_sliding, 0.06);  // 0.076 and 0.048 on the CPU's grid, lists
            EXPECT_GT(t.slots_used, n);
            for (int s = 0; s < kHold; ++s) gpu.step(p);
            const Snapshot held = gpu.download();
            const double moved = test::max_position_axis_difference(pile, held);
            // The pile holds: 99% of its beads stay within a fiftieth of a radius (a bead
            // resting loose on its surface may still settle a little; none travels far).
            EXPECT_LT(moved_quantile(pile, held, 0.99), 0.02f * p.radius) << "the pile crept";
            EXPECT_LT(moved, 0.5f * p.radius) << "a bead left the pile";
            std::printf(
                "%s: height %.4g m (CPU %.4g), %llu contacts (CPU %llu), sliding %.3f "
                "(CPU %.3f), moved %.2g r (99%%: %.2g r) in %d steps\n",
                label(lists, graph).c_str(), height_95(pile), height_95(cpu_pile),
                static_cast<unsigned long long>(t.contacts),
                static_cast<unsigned long long>(cpu_t.contacts), sliding, cpu_sliding,
                moved / p.radius, moved_quantile(pile, held, 0.99) / p.radius, kHold);
        }
    }
    // The classic law on the same backend: no static friction, the block keeps flowing.
    Params classic = p;
    classic.contact = static_cast<int>(ContactLaw::Classic);
    cuda::CudaSimulator flowing;
    flowing.reset(init, classic);
    for (int s = 0; s < kPour; ++s) flowing.step(classic);
    const float classic_speed = flowing.stats(classic).max_speed;
    std::printf("max speed after %d steps: frictional %.3g m/s (CPU), classic %.3g m/s\n", kPour,
                cpu_stats.max_speed, classic_speed);
    EXPECT_GT(classic_speed, 5.f * cpu_stats.max_speed);
}

// One sphere on the floor under gravity tilted by θ towards +x, from rest, for `steps` steps;
// its state and rotation afterwards.
struct Rolled {
    Float4 pos, vel, omega;
};

template <typename Sim>
Rolled roll(Sim& sim, float theta, float rolling_friction, int steps) {
    Params p = frictional_params();
    p.rolling_friction = rolling_friction;
    p.gravity_x = 9.81f * std::sin(theta);
    p.gravity_y = -9.81f * std::cos(theta);
    const Domain d{{-0.05f, 0.f, -0.05f}, {0.05f, 0.05f, 0.05f}};  // m
    sim.reset(testing::state_from_positions({{-0.03f, p.radius, 0.f}}, d, p.radius), p);
    for (int s = 0; s < steps; ++s) sim.step(p);
    const Snapshot snap = sim.download();
    const FrictionSnapshot f = sim.friction_snapshot();
    return {snap.pos[0], snap.vel[0], f.omega.empty() ? Float4{} : f.omega[0]};
}

TEST_F(CudaFrictional, ASphereRollsDownAnInclineOrIsHeldAsOnTheCpu) {
    const float theta = 10.f * kPi / 180.f;  // tan θ = 0.18
    const float r = frictional_params().radius;
    for (bool graph : {false, true}) {
        SCOPED_TRACE(graph ? "graph" : "plain");
        // μ_r = 0.05 < tan θ < μ_s: it rolls without slipping (v = −ω_z r).
        CpuSimulator cpu;
        cuda::CudaSimulator gpu(options(false, graph));
        const Rolled a = roll(cpu, theta, 0.05f, 2000);
        const Rolled b = roll(gpu, theta, 0.05f, 2000);
        EXPECT_GT(b.vel.x, 0.05f);  // m/s
        EXPECT_NEAR(b.omega.z * r, -b.vel.x, 0.05f * b.vel.x);
        EXPECT_NEAR(b.vel.x, a.vel.x, 1e-3f * a.vel.x);
        EXPECT_NEAR(b.omega.z, a.omega.z, 1e-3f * std::abs(a.omega.z));
        EXPECT_NEAR(b.pos.x, a.pos.x, 1e-3f * r);
        // μ_r = 0.3 > tan θ: rolling resistance and the remembered wall stretch hold it.
        const Rolled held_cpu = roll(cpu, theta, 0.3f, 4000);
        const Rolled held = roll(gpu, theta, 0.3f, 4000);
        EXPECT_LT(std::abs(held.pos.x + 0.03f), 0.05f * r);  // 0.011 r on the CPU
        EXPECT_NEAR(held.pos.x, held_cpu.pos.x, 1e-3f * r);
        EXPECT_LT(length(held.omega), 0.1f);  // rad/s
    }
}

TEST_F(CudaFrictional, SwitchingTheLawMidRunStartsItsState) {
    // The contact law is a parameter that changes without a reset: the classic law in double
    // precision first, then the frictional one (float, its state from zero), as on the CPU.
    Params p = frictional_params();
    Params classic = p;
    classic.contact = static_cast<int>(ContactLaw::Classic);
    const std::size_t n = 800;
    const InitialState init = block_on_the_floor(p, n);
    SimulatorOptions o = options(false, true);
    o.double_state = true;
    CpuSimulator cpu;
    cpu.set_options(o);
    cuda::CudaSimulator gpu(o);
    cpu.reset(init, classic);
    gpu.reset(init, classic);
    for (int s = 0; s < 100; ++s) {
        cpu.step(classic);
        gpu.step(classic);
    }
    EXPECT_TRUE(gpu.friction_snapshot().omega.empty());
    for (int s = 0; s < 500; ++s) {
        cpu.step(p);
        gpu.step(p);
    }
    EXPECT_LT(test::max_position_axis_difference(cpu.download(), gpu.download()), 0.05f * p.radius);
    const FrictionTotals t = totals(gpu.friction_snapshot());
    EXPECT_GT(t.max_omega, 1.f);  // rad/s; 3.8 on the CPU
    EXPECT_GT(t.slots_used, n);   // 1,416 on the CPU
    EXPECT_NEAR(double(t.contacts), double(totals(cpu.friction_snapshot()).contacts),
                0.05 * t.contacts);
}

TEST_F(CudaFrictional, AutoListsFollowTheLawBetweenSteps) {
    // Auto neighbour lists run with the frictional law on CUDA, not with the classic one. The
    // law is a parameter that changes without a reset, so the lists follow it from step to
    // step, and the run follows one on the grid (same contacts, summed in another order).
    const Params p = frictional_params();
    Params classic = p;
    classic.contact = static_cast<int>(ContactLaw::Classic);
    const std::size_t n = 800;
    const InitialState init = block_on_the_floor(p, n);
    SimulatorOptions o;
    o.graph = true;
    ASSERT_EQ(o.neighbour_list, kAuto);
    cuda::CudaSimulator autos(o);
    cuda::CudaSimulator grid(options(false, true));
    for (cuda::CudaSimulator* gpu : {&autos, &grid}) gpu->reset(init, classic);
    EXPECT_EQ(autos.effective_options().effective.neighbour_list, kOff);
    for (int s = 0; s < 50; ++s)
        for (cuda::CudaSimulator* gpu : {&autos, &grid}) gpu->step(classic);
    EXPECT_FALSE(autos.list_stats().active);
    for (int s = 0; s < 500; ++s)
        for (cuda::CudaSimulator* gpu : {&autos, &grid}) gpu->step(p);
    EXPECT_TRUE(autos.list_stats().active);
    EXPECT_GT(autos.list_stats().builds, 0u);
    EXPECT_EQ(autos.effective_options().effective.neighbour_list, kOn);
    EXPECT_FALSE(grid.list_stats().active);
    EXPECT_LT(test::max_position_axis_difference(grid.download(), autos.download()),
              0.02f * p.radius);
    const FrictionTotals a = totals(autos.friction_snapshot()),
                         g = totals(grid.friction_snapshot());
    EXPECT_GT(a.slots_used, n / 2);
    EXPECT_NEAR(double(a.contacts), double(g.contacts), 0.02 * g.contacts);
    // Back to the classic law: the grid again.
    autos.step(classic);
    EXPECT_FALSE(autos.list_stats().active);
    EXPECT_EQ(autos.effective_options().effective.neighbour_list, kOff);
    // A reset with the frictional law starts with them.
    autos.reset(init, p);
    EXPECT_EQ(autos.effective_options().effective.neighbour_list, kOn);
    autos.step(p);
    EXPECT_TRUE(autos.list_stats().active);
}

TEST_F(CudaFrictional, TheStateStartsAgainAfterAReset) {
    const Params p = frictional_params();
    const std::size_t n = 800;
    const InitialState init = block_on_the_floor(p, n);
    cuda::CudaSimulator gpu(options(true, true));
    gpu.reset(init, p);
    EXPECT_TRUE(gpu.friction_snapshot().omega.empty());
    for (int s = 0; s < 1000; ++s) gpu.step(p);
    const Snapshot first = gpu.download();
    EXPECT_GT(totals(gpu.friction_snapshot()).max_omega, 1.f);
    // A reset forgets rotations and contacts: the same run again gives the same state (up to
    // the order of the atomics).
    gpu.reset(init, p);
    const FrictionSnapshot fresh = gpu.friction_snapshot();
    EXPECT_TRUE(fresh.omega.empty());
    for (int s = 0; s < 1000; ++s) gpu.step(p);
    EXPECT_LT(test::max_position_axis_difference(first, gpu.download()), 0.02f * p.radius);
    // Another particle count: the state is sized again.
    const InitialState smaller =
        build_initial_state(preset_scene(Preset::Granular, 300, p), p, 300);
    gpu.reset(smaller, p);
    gpu.step(p);
    EXPECT_EQ(gpu.friction_snapshot().omega.size(), 300u);
}

// The deterministic mode puts each cell's particles in id order, so every particle gathers
// its contacts in one order: two runs from one state end bit for bit alike, contact slots
// included, and they follow the CPU as the default mode does.
TEST_F(CudaFrictional, TheDeterministicModeRepeatsItselfToTheBitAndFollowsTheCpu) {
    const Params p = frictional_params();
    const std::size_t n = 800;
    const InitialState init = block_on_the_floor(p, n);
    for (bool lists : {false, true}) {
        SCOPED_TRACE(label(lists, true));
        CpuSimulator cpu;
        cpu.set_options(options(lists, false));
        cpu.reset(init, p);
        for (int s = 0; s < 1000; ++s) cpu.step(p);
        SimulatorOptions o = options(lists, true);
        o.deterministic = true;
        Snapshot runs[2];
        FrictionSnapshot frictions[2];
        for (int r = 0; r < 2; ++r) {
            cuda::CudaSimulator gpu(o);
            gpu.reset(init, p);
            for (int s = 0; s < 1000; ++s) gpu.step(p);
            runs[r] = gpu.download();
            frictions[r] = gpu.friction_snapshot();
        }
        ASSERT_EQ(runs[0].pos.size(), n);
        for (std::size_t i = 0; i < n; ++i) {
            SCOPED_TRACE(i);
            ASSERT_EQ(std::memcmp(&runs[0].pos[i], &runs[1].pos[i], sizeof(Float4)), 0);
            ASSERT_EQ(std::memcmp(&frictions[0].omega[i], &frictions[1].omega[i], sizeof(Float4)),
                      0);
            ASSERT_EQ(frictions[0].contact_info[i], frictions[1].contact_info[i]);
        }
        for (std::size_t k = 0; k < n * kContactSlots; ++k)
            ASSERT_EQ(std::memcmp(&frictions[0].contacts[k], &frictions[1].contacts[k],
                                  sizeof(ContactSlot)),
                      0)
                << k;
        EXPECT_GT(totals(frictions[0]).contacts, n);
        EXPECT_LT(test::max_position_axis_difference(cpu.download(), runs[0]), 0.02f * p.radius);
    }
}

#endif

}  // namespace
}  // namespace plab::sim
