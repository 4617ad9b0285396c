// Ranks sharing one CUDA device (sim/ranks/rank_stepper.h; the ranks as threads, each with its
// own CUDA simulator): in deterministic mode each cell's particles are summed in id order, and a
// rank's memory runs in global id order, so 2 and 4 ranks step the classic pile and the dam
// break as one CUDA simulator does, bit for bit; the frictional law's memory travels with the
// particles. Needs a CUDA device; without one every test is reported as skipped (CTest label
// `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include "sim/friction_scene.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/rank_checks.h"
#include "sim/ranks/rank_stepper.h"
#include "sim/run/make_simulator.h"
#include "sim/thread_transport.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

using testing::largest;
using testing::largest_difference;
using testing::same_bits;

class CudaRanks : public test::CudaTest {};

std::unique_ptr<Simulator> deterministic_cuda() {
    auto s = make_simulator(Backend::Cuda);
    SimulatorOptions o;
    o.deterministic = true;
    o.neighbour_list = kOff;  // the grid every step, as each rank's restarted simulator
    s->set_options(o);
    return s;
}

// `steps` steps from `start` (its frictional state too) on `ranks` ranks sharing the device,
// gathered.
Snapshot on_ranks(int ranks, const InitialState& start, const Params& p, int steps,
                  std::size_t* crossed) {
    const float halo = rank_halo(p);
    const SlabDecomposition slabs = slabs_at_quantiles(start.domain, ranks, halo, start.pos);
    Snapshot result;
    std::mutex m;
    testing::ThreadMailbox box(ranks);
    box.run([&](RankTransport& t) {
        RankStepper rank(t, slabs, start, p, deterministic_cuda());
        rank.reset(start.pos, start.vel, start.friction);
        std::size_t moved = 0;
        for (int s = 0; s < steps; ++s) {
            rank.step(p);
            moved += rank.last().migrated;
        }
        Snapshot all = rank.gather();
        std::lock_guard<std::mutex> lock(m);
        *crossed += moved;
        if (t.rank() == 0) result = std::move(all);
    });
    return result;
}

void check_case(Preset preset, std::size_t count, int before, int steps) {
    const Params p = testing::one_step_params(preset);
    const InitialState init = testing::preset_state(preset, count, p);
    auto whole = deterministic_cuda();
    whole->reset(init, p);
    for (int s = 0; s < before; ++s) whole->step(p);
    const Snapshot mid = whole->download();
    InitialState start = init;
    start.pos = mid.pos;
    start.vel = mid.vel;
    for (int s = 0; s < steps; ++s) whole->step(p);
    const Snapshot expected = whole->download();
    std::size_t crossed = 0;
    for (int ranks : {2, 4}) {
        const Snapshot got = on_ranks(ranks, start, p, steps, &crossed);
        ASSERT_EQ(got.pos.size(), expected.pos.size());
        std::printf("  %s, %d ranks on one device: largest position difference %.3g m\n",
                    std::string(preset_name(preset)).c_str(), ranks,
                    largest_difference(got.pos, expected.pos));
        EXPECT_TRUE(same_bits(got.pos, expected.pos))
            << ranks << " ranks: positions differ from one simulator's";
        EXPECT_TRUE(same_bits(got.vel, expected.vel))
            << ranks << " ranks: velocities differ from one simulator's";
    }
    EXPECT_GT(crossed, 0u) << "no particle crossed a cut: a weak test";
}

TEST_F(CudaRanks, ThePileOnTwoAndFourRanksIsOneSimulatorsBitForBit) {
    check_case(Preset::Classic, 40000, 300, 100);
}

TEST_F(CudaRanks, TheDamBreakOnTwoAndFourRanksIsOneSimulatorsBitForBit) {
    check_case(Preset::Water, 30000, 600, 80);
}

// The frictional law: each particle's rotation and contact memory travel with it. A slumping
// block; 2 and 4 ranks equal one bit for bit, and one rank follows the whole CUDA simulator
// (printed; bit for bit on the CPU, test_rank_stepper) far closer than without the memory.
TEST_F(CudaRanks, TheSlumpingBlockOnRanksCarriesTheContactMemory) {
    const Params p = testing::sand();
    const InitialState init = testing::block_on_the_floor(p, 20000);
    auto whole = deterministic_cuda();
    if (!whole->unsupported(p).empty()) GTEST_SKIP() << whole->unsupported(p);
    const testing::Reference ref = testing::reference_run(*whole, init, p, 100, 40);
    const InitialState& start = ref.start;
    const Snapshot& expected = ref.expected;
    ASSERT_FALSE(start.friction.empty());
    std::size_t crossed = 0;
    const Snapshot one = on_ranks(1, start, p, 40, &crossed);
    for (int ranks : {2, 4}) {
        const Snapshot got = on_ranks(ranks, start, p, 40, &crossed);
        EXPECT_TRUE(same_bits(got.pos, one.pos)) << ranks;
        EXPECT_TRUE(same_bits(got.vel, one.vel)) << ranks;
    }
    EXPECT_GT(crossed, 0u);
    InitialState forgetful = start;
    forgetful.friction = {};
    const double scale = largest(expected.vel);
    const double with = largest_difference(one.vel, expected.vel) / scale;
    const double without =
        largest_difference(on_ranks(1, forgetful, p, 40, &crossed).vel, expected.vel) / scale;
    std::printf(
        "  slumping block, ranks against one CUDA simulator: largest velocity difference "
        "%.3g of the largest speed with the memory carried, %.3g without\n",
        with, without);
    EXPECT_LT(with, 1e-2);
    EXPECT_GT(without, 10 * with);
}

}  // namespace
}  // namespace plab::sim
