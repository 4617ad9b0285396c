// Ranks sharing one CUDA device (sim/ranks/rank_stepper.h; the ranks as threads, each with its
// own CUDA simulator): in deterministic mode each cell's particles are summed in id order, and a
// rank's memory runs in global id order, so 2 and 4 ranks step the classic pile and the dam
// break as one CUDA simulator does, bit for bit. Needs a CUDA device; without one every test is
// reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/ranks/rank_stepper.h"
#include "sim/run/make_simulator.h"
#include "sim/thread_transport.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

class CudaRanks : public test::CudaTest {};

std::unique_ptr<Simulator> deterministic_cuda() {
    auto s = make_simulator(Backend::Cuda);
    SimulatorOptions o;
    o.deterministic = true;
    o.neighbour_list = kOff;  // the grid every step, as each rank's restarted simulator
    s->set_options(o);
    return s;
}

double largest_difference(const std::vector<Float4>& a, const std::vector<Float4>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max<double>(d, std::sqrt(length_squared(xyz(a[i]) - xyz(b[i]))));
    return d;
}

// `steps` steps from `start` on `ranks` ranks sharing the device, gathered.
Snapshot on_ranks(int ranks, const InitialState& start, const Params& p, int steps,
                  std::size_t* crossed) {
    const float halo = rank_halo(p);
    const SlabDecomposition slabs =
        balanced_slabs(start.domain, ranks, halo,
                       coordinates_along(even_slabs(start.domain, ranks, halo), start.pos));
    Snapshot result;
    std::mutex m;
    testing::ThreadMailbox box(ranks);
    box.run([&](RankTransport& t) {
        RankStepper rank(t, slabs, start, p, deterministic_cuda());
        rank.reset(start.pos, start.vel);
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
        EXPECT_EQ(std::memcmp(got.pos.data(), expected.pos.data(), got.pos.size() * 16), 0)
            << ranks << " ranks: positions differ from one simulator's";
        EXPECT_EQ(std::memcmp(got.vel.data(), expected.vel.data(), got.vel.size() * 16), 0)
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

}  // namespace
}  // namespace plab::sim
