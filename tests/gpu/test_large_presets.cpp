// Every preset at 4M particles on the GPU keeps a sound state for 2,000 steps with its default
// variants: the sizes the benchmarks publish must come from runs that did not blow up. Skipped
// without a CUDA device.
#include <gtest/gtest.h>

#include <string>

#include "sim/engine/simulator.h"
#include "sim/run/divergence.h"
#include "sim/run/make_simulator.h"
#include "sim/run/run_recipe.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

constexpr std::size_t kParticles = 4'194'304;
constexpr int kSteps = 2000;

class LargePresets : public testing::TestWithParam<const char*> {
  protected:
    void SetUp() override { PLAB_SKIP_WITHOUT_CUDA(); }
};

TEST_P(LargePresets, FourMillionParticlesStaySoundFor2000Steps) {
    RunRequest request;
    request.preset = GetParam();
    request.particles = kParticles;
    RunRecipe run = resolve_run(request, kParticles);
    run.params.substeps = 1;
    SimulatorOptions graph;
    graph.graph = true;
    const auto sim = make_simulator(Backend::Cuda, nullptr, graph);
    sim->reset(run.initial_state(), run.params);
    for (int done = 0; done < kSteps; done += 500) {
        for (int i = 0; i < 500; ++i) sim->step(run.params);
        const SimStats s = sim->stats(run.params);
        ASSERT_EQ(divergence_reason(s, run.params), "")
            << run.label << " after " << done + 500 << " steps";
        ASSERT_EQ(s.count, kParticles);
    }
    // The frictional presets run on their neighbour lists by default (auto).
    if (runs_frictional_law(run.params)) {
        const NeighbourListStats lists = sim->list_stats();
        EXPECT_TRUE(lists.active) << run.label;
        EXPECT_GT(lists.builds, 0u) << run.label;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryPreset, LargePresets,
                         testing::Values("classic", "granular", "water", "glass-beads",
                                         "sand-like"));

}  // namespace
}  // namespace plab::sim
