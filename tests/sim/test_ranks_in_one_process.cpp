// Ranks of a slab decomposition stepped in one process (sim/ranks/ranks_in_one_process.h): a
// step over three ranks with their halos equals the whole domain's step up to the order of the
// force sums, particles that cross a cut move to their new rank and none is lost or doubled,
// and a halo narrower than the interaction range is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/ranks/ranks_in_one_process.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

using testing::kOrderOnly;
using testing::one_step_params;
using testing::preset_state;

RanksInOneProcess::MakeSimulator cpu() {
    return [] { return std::make_unique<CpuSimulator>(); };
}

// The largest difference between two states after one step from `before`, over the largest
// change that step made (velocity: the kick; position: the move).
struct StepDifference {
    double velocity = 0, position = 0;
};
StepDifference difference(const Snapshot& before, const Snapshot& a, const Snapshot& b) {
    double kick = 0, move = 0, dv = 0, dx = 0;
    for (std::size_t i = 0; i < before.pos.size(); ++i) {
        kick =
            std::max<double>(kick, std::sqrt(length_squared(xyz(a.vel[i]) - xyz(before.vel[i]))));
        move =
            std::max<double>(move, std::sqrt(length_squared(xyz(a.pos[i]) - xyz(before.pos[i]))));
        dv = std::max<double>(dv, std::sqrt(length_squared(xyz(a.vel[i]) - xyz(b.vel[i]))));
        dx = std::max<double>(dx, std::sqrt(length_squared(xyz(a.pos[i]) - xyz(b.pos[i]))));
    }
    return {kick > 0 ? dv / kick : dv, move > 0 ? dx / move : dx};
}

TEST(RanksInOneProcess, ThreeRanksStepAsTheWholeDomain) {
    const Params p = one_step_params(Preset::Classic);
    const InitialState init = preset_state(Preset::Classic, 3000, p);
    // Into the pile a while, so that particles touch across the cuts.
    CpuSimulator whole;
    whole.reset(init, p);
    for (int s = 0; s < 300; ++s) whole.step(p);
    const float halo = interaction_range(p);
    RanksInOneProcess ranks(slabs_at_quantiles(init.domain, 3, halo, whole.download().pos),
                            init.domain, init.grid, p, cpu());
    double worst_v = 0, worst_x = 0;
    Snapshot state = whole.download();
    ranks.reset(state.pos, state.vel);
    for (int round = 0; round < 10; ++round) {
        for (int s = 0; s < 20; ++s) ranks.step(p);
        const Snapshot before = ranks.gather();
        whole.reset({init.domain, init.grid, before.pos, before.vel}, p);
        whole.step(p);
        ranks.step(p);
        const StepDifference d = difference(before, whole.download(), ranks.gather());
        worst_v = std::max(worst_v, d.velocity);
        worst_x = std::max(worst_x, d.position);
        EXPECT_GT(ranks.halo_copies(), 0u);
    }
    std::printf("  three ranks against one: largest differences %.2g (velocity) %.2g (position)\n",
                worst_v, worst_x);
    EXPECT_LT(worst_v, kOrderOnly) << "a contact across a cut was missed";
    EXPECT_LT(worst_x, kOrderOnly);
    const std::vector<std::size_t> counts = ranks.counts();
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::size_t{0}), init.pos.size());
    for (std::size_t c : counts) EXPECT_GT(c, 0u);
}

TEST(RanksInOneProcess, ParticlesThatCrossACutMoveToTheirNewRank) {
    Params p = one_step_params(Preset::Classic);
    InitialState init = preset_state(Preset::Classic, 2000, p);
    // Everything moving along the decomposition's axis (x, the first of the cube's equal
    // sides), fast enough to cross the cuts within the run.
    for (Float4& v : init.vel) v = {0.02f, 0.f, 0.f, 0.f};
    const SlabDecomposition slabs = even_slabs(init.domain, 4, interaction_range(p));
    ASSERT_EQ(slabs.axis, 0);
    RanksInOneProcess ranks(slabs, init.domain, init.grid, p, cpu());
    ranks.reset(init.pos, init.vel);
    std::size_t moved = 0;
    for (int s = 0; s < 100; ++s) {
        ranks.step(p);
        moved += ranks.migrated();
    }
    EXPECT_GT(moved, 0u);
    const Snapshot after = ranks.gather();  // throws if a particle were lost or doubled
    ASSERT_EQ(after.pos.size(), init.pos.size());
    // And each particle now sits in its rank's slab.
    RanksInOneProcess check(slabs, init.domain, init.grid, p, cpu());
    check.reset(after.pos, after.vel);
    EXPECT_EQ(check.counts(), ranks.counts());
}

TEST(RanksInOneProcess, RefusesWhatItCannotStepExactly) {
    const Params p = one_step_params(Preset::Classic);
    const Domain d{{-1, -1, -1}, {1, 1, 1}};
    const GridSpec g = make_grid(d, interaction_range(p));
    EXPECT_THROW(RanksInOneProcess(even_slabs(d, 2, 0.5f * interaction_range(p)), d, g, p, cpu()),
                 Error);
    EXPECT_THROW(RanksInOneProcess(even_slabs(d, 2, interaction_range(p)), d, g,
                                   preset_params(Preset::Water), cpu()),
                 Error);
}

}  // namespace
}  // namespace plab::sim
