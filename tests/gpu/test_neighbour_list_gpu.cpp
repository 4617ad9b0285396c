// Neighbour lists on the CUDA backend against the per-step grid, on CUDA and on the CPU, from
// the same states over thousands of steps; fast particles; short lists. Needs a CUDA device;
// where there is none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "sim/cpu/cpu_simulator.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/engine/simulator.h"
#include "sim/friction_list_compare.h"
#include "sim/friction_scene.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

// The CPU's bounds of summation order (sim/list_compare.h): CUDA's atomics only change the
// order inside a cell from run to run.
using testing::kOrderOnly;
using testing::kSphDensity;
using testing::kSphOrderOnly;
using testing::one_step_params;

class NeighbourListGpu : public test::CudaTest {
  protected:
    static SimulatorOptions options(bool lists, bool graph) {
        SimulatorOptions o;
        o.neighbour_list = lists;
        o.graph = graph;
        return o;
    }
    static InitialState state(Preset preset, std::size_t count, const Params& p) {
        return build_initial_state(preset_scene(preset, count, p), p, count);
    }
};

void expect_same_physics(const testing::ListComparison& c, Model model = Model::Dem) {
    EXPECT_GT(c.compared, 0);
    const double tol = model == Model::Sph ? kSphOrderOnly : kOrderOnly;
    EXPECT_LT(c.velocity, tol) << "velocities differ beyond summation order";
    EXPECT_LT(c.position, tol) << "positions differ beyond summation order";
    EXPECT_LT(c.density, kSphDensity) << "densities differ beyond summation order";
    EXPECT_TRUE(c.stats.active);
    EXPECT_LT(c.stats.builds, c.stats.steps);
    EXPECT_GT(c.stats.builds, 0u);
}

#if PLAB_HAS_CUDA

TEST_F(NeighbourListGpu, MatchesCudaWithoutListsAndTheCpu) {
    for (Preset preset : {Preset::Classic, Preset::Water}) {
        for (bool graph : {false, true}) {
            SCOPED_TRACE(std::string(preset_name(preset)) + (graph ? " graph" : " plain"));
            const Params p = one_step_params(preset);
            const InitialState init = state(preset, 40000, p);
            auto listed = make_simulator(Backend::Cuda, nullptr, options(true, graph));
            auto plain = make_simulator(Backend::Cuda, nullptr, options(false, graph));
            const auto c = testing::compare_list_with_grid(*listed, *plain, init, p, 3000, 25);
            expect_same_physics(c, p.model);
            EXPECT_EQ(c.stats.steps, 3000u);
            std::printf("%s %s: %llu builds in %llu steps, max diff v %.2g x %.2g\n",
                        std::string(preset_name(preset)).c_str(), graph ? "graph" : "plain",
                        static_cast<unsigned long long>(c.stats.builds),
                        static_cast<unsigned long long>(c.stats.steps), c.velocity, c.position);
            CpuSimulator cpu;
            const auto k = testing::compare_list_with_grid(*listed, cpu, init, p, 600, 50);
            std::printf(
                "  against the CPU: max diff v %.2g x %.2g, %ld particle-steps at the "
                "contact distance left out\n",
                k.velocity, k.position, k.on_threshold);
            expect_same_physics(k, p.model);
        }
    }
}

TEST_F(NeighbourListGpu, FastParticlesRebuildEveryStep) {
    Params p = one_step_params(Preset::Classic);
    p.gravity_y = 0.f;
    p.collider_radius = 0.f;
    p.skin = 0.05f;
    InitialState init = state(Preset::Classic, 20000, p);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-2.f * p.radius, 2.f * p.radius);
    for (auto& v : init.vel) v = {u(rng), u(rng), u(rng), 0.f};
    for (bool graph : {false, true}) {
        auto listed = make_simulator(Backend::Cuda, nullptr, options(true, graph));
        auto plain = make_simulator(Backend::Cuda, nullptr, options(false, false));
        const auto c = testing::compare_list_with_grid(*listed, *plain, init, p, 300, 3);
        EXPECT_LT(c.velocity, kOrderOnly);
        EXPECT_LT(c.position, kOrderOnly);
        EXPECT_EQ(c.stats.builds, c.stats.steps);
    }
}

// A lattice at rest (a small gap between neighbours) with particles shot through it: the
// strays are repaired (their queue, or every particle when the queue overflows its slots) with
// the grid's physics, on CUDA against CUDA without lists and against the CPU.
TEST_F(NeighbourListGpu, StraysAreRepairedWithTheGridsPhysics) {
    Params p = one_step_params(Preset::Classic);
    p.gravity_y = 0.f;
    p.collider_radius = 0.f;
    const InitialState init = testing::lattice_with_fast_particles(p, 0.4f, 12, 11);
    // 256: the queue fits; 16, with a queue of one slot: every step with a stray redoes every
    // particle.
    for (int limit : {256, 16}) {
        for (bool graph : {false, true}) {
            SCOPED_TRACE(std::to_string(limit) + (graph ? " graph" : " plain"));
            SimulatorOptions o = options(true, graph);
            o.list_strays = limit;
            auto listed = std::make_unique<cuda::CudaSimulator>(o);
            if (limit == 16) listed->set_stray_repair_slots(1);
            auto plain = make_simulator(Backend::Cuda, nullptr, options(false, false));
            const auto c = testing::compare_list_with_grid(*listed, *plain, init, p, 120, 2);
            expect_same_physics(c, p.model);
            EXPECT_GT(c.largest_kick, 0.1 * p.radius) << "the fast particles hit nothing";
            std::printf("limit %d %s: %llu builds in %llu steps, %llu strays, %llu redone\n", limit,
                        graph ? "graph" : "plain", static_cast<unsigned long long>(c.stats.builds),
                        static_cast<unsigned long long>(c.stats.steps),
                        static_cast<unsigned long long>(c.stats.strays),
                        static_cast<unsigned long long>(c.stats.repaired));
            EXPECT_GT(c.stats.strays, 0u);
            EXPECT_GE(c.stats.moved, c.stats.strays);
            if (limit == 16)
                EXPECT_GE(c.stats.repaired, init.pos.size()) << "the queue never overflowed";
            else
                EXPECT_LT(c.stats.repaired, c.stats.steps * init.pos.size() / 10);
            CpuSimulator cpu;
            const auto k = testing::compare_list_with_grid(*listed, cpu, init, p, 60, 6);
            expect_same_physics(k, p.model);
        }
    }
}

// The frictional law finds its strays' contacts in its own pass (sim/physics/list_strays.h): a sand
// block resting on the floor with a few top beads thrown up and sideways. From the listed run's
// whole state (positions, rotations, contact memory) a step of CUDA's per-step grid, and of
// the CPU's, gives the same forces, rotations and contacts, summed in another order.
TEST_F(NeighbourListGpu, FrictionalStraysFindEveryContactInThePass) {
    const Params p = one_step_params(Preset::Sand);
    const std::size_t n = 600;
    const InitialState init = testing::block_with_thrown_beads(p, n, 8);
    for (bool graph : {false, true}) {
        SCOPED_TRACE(graph ? "graph" : "plain");
        SimulatorOptions o = options(true, graph);
        o.list_strays = 64;
        cuda::CudaSimulator listed(o);
        cuda::CudaSimulator grid(options(false, false));
        const auto c = testing::compare_frictional_list_with_grid(listed, grid, init, p, 400, 4);
        testing::expect_strays_found_every_contact(c, 100, n, kOrderOnly);
        CpuSimulator cpu;
        const auto k = testing::compare_frictional_list_with_grid(listed, cpu, init, p, 200, 8);
        EXPECT_EQ(k.compared, 25);
        EXPECT_EQ(k.contact_gaps, 0);
        EXPECT_LT(k.velocity, kOrderOnly);
        EXPECT_LT(k.rotation, kOrderOnly);
    }
}

TEST_F(NeighbourListGpu, OverflowedParticlesScanTheGridAndTheSlotsGrow) {
    for (Preset preset : {Preset::Classic, Preset::Water}) {
        SCOPED_TRACE(std::string(preset_name(preset)));
        const Params p = one_step_params(preset);
        const InitialState init = state(preset, 20000, p);
        cuda::CudaSimulator listed(options(true, true));
        listed.set_list_slots(2, false);
        auto plain = make_simulator(Backend::Cuda);
        const auto c = testing::compare_list_with_grid(listed, *plain, init, p, 600, 7);
        expect_same_physics(c, p.model);
        EXPECT_GT(c.stats.overflowed, 1000u);
        EXPECT_EQ(c.stats.slots, 2u);
        // Growing: the host learns of the overflow from a copy of the control (polled without
        // waiting, so some steps later while it runs ahead of the device) or from list_stats,
        // and the next build has more slots.
        cuda::CudaSimulator growing(options(true, true));
        growing.set_list_slots(2, true);
        growing.reset(init, p);
        for (int s = 0; s < 300; ++s) growing.step(p);
        const NeighbourListStats g = growing.list_stats();
        EXPECT_GT(g.slots, 2u);
        EXPECT_GT(g.overflowed, 0u);
        const uint64_t overflowed = g.overflowed;
        for (int s = 0; s < 300; ++s) growing.step(p);
        EXPECT_EQ(growing.list_stats().overflowed, overflowed) << "no overflow after growing";
    }
}

#endif

}  // namespace
}  // namespace plab::sim
