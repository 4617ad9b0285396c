// One rank's step over a transport (sim/ranks/rank_stepper.h), its ranks as threads
// (thread_transport.h): on the CPU with the grid rebuilt every step, 1, 2 and 4 ranks step the
// classic pile bit for bit as one simulator does, particles crossing the cuts included; a
// decomposition for another rank count is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/friction_scene.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/rank_checks.h"
#include "sim/ranks/rank_stepper.h"
#include "sim/thread_transport.h"

namespace plab::sim {
namespace {

using testing::gridded_cpu;
using testing::largest;
using testing::largest_difference;
using testing::same_bits;

using testing::one_step_params;
using testing::preset_state;
using testing::ThreadMailbox;

// `steps` steps from `start` (its frictional state too) on `ranks` ranks, gathered.
Snapshot on_ranks(int ranks, const InitialState& start, const Params& p, int steps,
                  std::size_t* migrated, FrictionRecord* friction = nullptr) {
    const float halo = rank_halo(p);
    const SlabDecomposition slabs = slabs_at_quantiles(start.domain, ranks, halo, start.pos);
    Snapshot result;
    std::mutex m;
    ThreadMailbox box(ranks);
    box.run([&](RankTransport& t) {
        RankStepper rank(t, slabs, start, p, gridded_cpu());
        rank.reset(start.pos, start.vel, start.friction);
        std::size_t moved = 0;
        for (int s = 0; s < steps; ++s) {
            rank.step(p);
            moved += rank.last().migrated;
        }
        Snapshot all = rank.gather(friction);
        std::lock_guard<std::mutex> lock(m);
        *migrated += moved;
        if (t.rank() == 0) result = std::move(all);
    });
    return result;
}

TEST(RankStepper, OneTwoAndFourRanksStepAsOneSimulatorBitForBit) {
    const Params p = one_step_params(Preset::Classic);
    InitialState init = preset_state(Preset::Classic, 3000, p);
    // Into the fall a while, then the compared steps: particles touch across the cuts and cross
    // them.
    auto whole = gridded_cpu();
    whole->reset(init, p);
    for (int s = 0; s < 300; ++s) whole->step(p);
    const Snapshot mid = whole->download();
    InitialState start = init;
    start.pos = mid.pos;
    start.vel = mid.vel;
    for (int s = 0; s < 60; ++s) whole->step(p);
    const Snapshot expected = whole->download();
    for (int ranks : {1, 2, 4}) {
        std::size_t migrated = 0;
        const Snapshot got = on_ranks(ranks, start, p, 60, &migrated);
        EXPECT_TRUE(same_bits(got.pos, expected.pos)) << ranks << " ranks: positions differ";
        EXPECT_TRUE(same_bits(got.vel, expected.vel)) << ranks << " ranks: velocities differ";
        if (ranks > 1) {
            EXPECT_GT(migrated, 0u) << "no particle crossed a cut: a weak test";
        }
    }
}

// SPH over ranks with a halo of twice the range: a halo particle's density, which the force on
// an own particle reads, is summed over its own neighbours. The whole simulator keeps its
// particles in the last step's cell order (SPH writes the state in cell order), so the
// reference is one rank: its simulator restarts from id order every step, as each rank's does.
// 2 and 4 ranks equal it bit for bit: no neighbour and no neighbour's density was missed.
TEST(RankStepper, SphOnTwoAndFourRanksEqualsOneBitForBit) {
    const Params p = one_step_params(Preset::Water);
    const InitialState init = preset_state(Preset::Water, 3000, p);
    auto whole = gridded_cpu();
    whole->reset(init, p);
    for (int s = 0; s < 600; ++s) whole->step(p);  // the column flowing: particles cross cuts
    const Snapshot mid = whole->download();
    InitialState start = init;
    start.pos = mid.pos;
    start.vel = mid.vel;
    std::size_t moved = 0;
    const Snapshot one = on_ranks(1, start, p, 80, &moved);
    std::size_t migrated = 0;  // over both runs (the flow crosses the two-rank cut late)
    for (int ranks : {2, 4}) {
        const Snapshot got = on_ranks(ranks, start, p, 80, &migrated);
        EXPECT_TRUE(same_bits(got.pos, one.pos)) << ranks << " ranks: positions differ";
        EXPECT_TRUE(same_bits(got.vel, one.vel)) << ranks << " ranks: velocities or densities";
    }
    EXPECT_GT(migrated, 0u) << "no particle crossed a cut: a weak test";
    // A halo of the interaction range alone is refused for SPH.
    ThreadMailbox box(2);
    box.run([&](RankTransport& t) {
        EXPECT_THROW(RankStepper(t, even_slabs(init.domain, 2, interaction_range(p)), init, p,
                                 gridded_cpu()),
                     Error);
    });
}

// The frictional law over ranks: each particle's rotation and contact memory travel with it
// (sim/ranks/friction_rows.h). A slumping block: 1, 2 and 4 ranks step it as the whole
// simulator does, bit for bit; without the memory carried the beads' velocities part by a tenth
// of the largest speed (printed).
TEST(RankStepper, TheFrictionalLawOnRanksCarriesTheContactMemory) {
    const Params p = testing::sand();
    // A block on the floor slumping: contacts open, close, slide and roll from the first step.
    const InitialState init = testing::block_on_the_floor(p, 3000);
    const testing::Reference ref = testing::reference_run(*gridded_cpu(), init, p, 100, 40);
    const InitialState& start = ref.start;
    const Snapshot& expected = ref.expected;
    ASSERT_FALSE(start.friction.empty());
    std::size_t held = 0;
    for (const ContactSlot& c : start.friction.contacts) held += c.partner != kFreeSlot;
    EXPECT_GT(held, init.pos.size()) << "few remembered contacts: a weak test";

    std::size_t migrated = 0;
    for (int ranks : {1, 2, 4}) {
        FrictionRecord memory;
        const Snapshot got = on_ranks(ranks, start, p, 40, &migrated, &memory);
        EXPECT_TRUE(same_bits(got.pos, expected.pos)) << ranks << " ranks: positions differ";
        EXPECT_TRUE(same_bits(got.vel, expected.vel)) << ranks << " ranks: velocities differ";
        EXPECT_EQ(memory.omega.size(), init.pos.size());
    }
    EXPECT_GT(migrated, 0u) << "no particle crossed a cut: a weak test";
    InitialState forgetful = start;
    forgetful.friction = {};
    const double without =
        largest_difference(on_ranks(2, forgetful, p, 40, &migrated).vel, expected.vel) /
        largest(expected.vel);
    std::printf(
        "  the slumping block on ranks without the contact memory: largest velocity "
        "difference %.2g of the largest speed\n",
        without);
    EXPECT_GT(without, 1e-2) << "the memory makes no difference here: a weak test";
}

// Moving the cuts: the pile starts in one corner, so even slabs leave most ranks idle; after a
// rebalance the ranks hold about as many particles each, and the steps stay bit for bit the
// whole simulator's.
TEST(RankStepper, RebalancingMovesTheCutsAndKeepsTheSteps) {
    const Params p = one_step_params(Preset::Classic);
    const InitialState init = preset_state(Preset::Classic, 3000, p);
    auto whole = gridded_cpu();
    whole->reset(init, p);
    for (int s = 0; s < 300; ++s) whole->step(p);
    const Snapshot mid = whole->download();
    for (int s = 0; s < 40; ++s) whole->step(p);
    const Snapshot expected = whole->download();
    const SlabDecomposition even = even_slabs(init.domain, 4, rank_halo(p));
    Snapshot got;
    double before = 0, after = 0;
    std::mutex m;
    ThreadMailbox box(4);
    box.run([&](RankTransport& t) {
        RankStepper rank(t, even, init, p, gridded_cpu());
        rank.reset(mid.pos, mid.vel);
        for (int s = 0; s < 20; ++s) rank.step(p);
        const RankStepper::Rebalance r = rank.rebalance();
        for (int s = 0; s < 20; ++s) rank.step(p);
        Snapshot all = rank.gather();
        std::lock_guard<std::mutex> lock(m);
        if (t.rank() != 0) return;
        got = std::move(all);
        before = r.before;
        after = r.after;
    });
    std::printf("  four ranks: imbalance %.2f before the rebalance, %.2f after\n", before, after);
    EXPECT_GT(before, 1.5) << "even slabs were balanced already: a weak test";
    EXPECT_LT(after, 1.1);
    EXPECT_TRUE(same_bits(got.pos, expected.pos));
    EXPECT_TRUE(same_bits(got.vel, expected.vel));
}

TEST(RankStepper, RefusesADecompositionForAnotherRankCount) {
    const Params p = one_step_params(Preset::Classic);
    const InitialState init = preset_state(Preset::Classic, 500, p);
    ThreadMailbox box(2);
    box.run([&](RankTransport& t) {
        EXPECT_THROW(RankStepper(t, even_slabs(init.domain, 3, interaction_range(p)), init, p,
                                 gridded_cpu()),
                     Error);
    });
}

}  // namespace
}  // namespace plab::sim
