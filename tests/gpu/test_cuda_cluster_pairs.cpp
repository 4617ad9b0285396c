// Cluster pairs on the CUDA backend (a warp per cluster, sim/cuda/cluster_kernels.cuh) against
// the grid built every step, on CUDA and on the CPU, with and without graphs; clusters whose
// members overflowed their lists; switched on mid-run. Needs a CUDA device; where there is
// none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <cstdio>

#include "sim/cpu/cpu_simulator.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/engine/simulator.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/physics/cluster_pairs.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

using testing::kOrderOnly;
using testing::one_step_params;

class ClusterPairsGpu : public test::CudaTest {
  protected:
    static SimulatorOptions options(bool clusters, bool graph, bool contact_list = true) {
        SimulatorOptions o;
        o.cluster_pairs = clusters ? kOn : kOff;
        o.graph = graph;
        o.contact_list = contact_list;
        return o;
    }
    static InitialState state(std::size_t count, const Params& p) {
        return build_initial_state(preset_scene(Preset::Classic, count, p), p, count);
    }
};

void expect_same_physics(const testing::ListComparison& c) {
    EXPECT_GT(c.compared, 0);
    EXPECT_LT(c.velocity, kOrderOnly) << "velocities differ beyond summation order";
    EXPECT_LT(c.position, kOrderOnly) << "positions differ beyond summation order";
    EXPECT_TRUE(c.stats.active);
    EXPECT_GT(c.stats.builds, 0u);
}

#if PLAB_HAS_CUDA

TEST_F(ClusterPairsGpu, MatchCudaWithoutThemAndTheCpu) {
    const Params p = one_step_params(Preset::Classic);
    const std::size_t n = 40000;
    const InitialState init = state(n, p);
    // Plain launches, a graph, and a graph computing each contact where it is found.
    for (int form = 0; form < 3; ++form) {
        const bool graph = form > 0, contact_list = form < 2;
        SCOPED_TRACE(graph ? (contact_list ? "graph" : "graph, contacts in the loop") : "plain");
        auto clustered = make_simulator(Backend::Cuda, nullptr, options(true, graph, contact_list));
        auto plain = make_simulator(Backend::Cuda, nullptr, options(false, graph));
        const auto c = testing::compare_list_with_grid(*clustered, *plain, init, p, 3000, 25);
        expect_same_physics(c);
        EXPECT_EQ(c.stats.steps, 3000u);
        EXPECT_LT(c.stats.builds, c.stats.steps);
        EXPECT_GT(c.stats.cluster_slots, 0u);
        EXPECT_GT(c.stats.cluster_entries, 0u) << "the pass ran by cluster pairs";
        std::printf(
            "%s: %llu builds in %llu steps, %.1f pair tests a particle, max diff v %.2g "
            "x %.2g\n",
            graph ? "graph" : "plain", static_cast<unsigned long long>(c.stats.builds),
            static_cast<unsigned long long>(c.stats.steps),
            double(c.stats.cluster_entries) * kClusterSize * kClusterSize / double(n), c.velocity,
            c.position);
        CpuSimulator cpu;
        const auto k = testing::compare_list_with_grid(*clustered, cpu, init, p, 600, 50);
        std::printf("  against the CPU: max diff v %.2g x %.2g, %ld at the contact distance\n",
                    k.velocity, k.position, k.on_threshold);
        expect_same_physics(k);
    }
}

// Particle lists of two slots: every cluster reads its members' lists (which scan the grid of
// the last build), split over the member's four lanes.
TEST_F(ClusterPairsGpu, OverflowedClustersReadTheParticleLists) {
    const Params p = one_step_params(Preset::Classic);
    const InitialState init = state(20000, p);
    cuda::CudaSimulator clustered(options(true, true));
    clustered.set_list_slots(2, false);
    auto plain = make_simulator(Backend::Cuda);
    const auto c = testing::compare_list_with_grid(clustered, *plain, init, p, 600, 7);
    expect_same_physics(c);
    EXPECT_GT(c.stats.overflowed, 1000u);
}

TEST_F(ClusterPairsGpu, SwitchingOnMidRunBuildsThem) {
    const Params p = one_step_params(Preset::Classic);
    SimulatorOptions lists;
    lists.neighbour_list = kOn;
    lists.graph = true;
    cuda::CudaSimulator sim(lists);
    sim.reset(state(20000, p), p);
    for (int s = 0; s < 30; ++s) sim.step(p);
    const NeighbourListStats before = sim.list_stats();
    EXPECT_EQ(before.cluster_entries, 0u);
    SimulatorOptions both = lists;
    both.cluster_pairs = kOn;
    sim.set_options(both);
    sim.step(p);
    const NeighbourListStats after = sim.list_stats();
    EXPECT_EQ(after.builds, before.builds + 1);
    EXPECT_GT(after.cluster_entries, 0u);
    for (int s = 0; s < 100; ++s) sim.step(p);
    EXPECT_EQ(sim.stats(p).non_finite, 0u);
}

#endif

}  // namespace
}  // namespace plab::sim
