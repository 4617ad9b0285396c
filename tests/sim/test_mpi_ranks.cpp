// The ranks of a run as MPI processes (sim/ranks/mpi_transport.h), started by ctest under
// mpiexec with 2 and 4 processes: the classic pile stepped over them equals one simulator bit
// for bit (each process steps the whole pile too, as the reference), no particle is lost or
// doubled, the frictional law's memory travels with the particles, and the transport's
// collectives carry what they were given.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "sim/cpu/cpu_simulator.h"
#include "sim/friction_scene.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/rank_checks.h"
#include "sim/ranks/mpi_transport.h"
#include "sim/ranks/rank_stepper.h"

namespace plab::sim {
namespace {

using testing::gridded_cpu;
using testing::same_bits;

RankTransport* transport = nullptr;  // the job's, made in main

TEST(MpiRanks, TheCollectivesCarryWhatTheyWereGiven) {
    const int me = transport->rank(), n = transport->size();
    // Rank r sends r + t particles to rank t, each with id 1000 r + t.
    std::vector<Parcel> out(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t)
        for (int k = 0; k < me + t; ++k)
            out[static_cast<std::size_t>(t)].push(static_cast<uint32_t>(1000 * me + t),
                                                  {float(me), float(t), float(k), 1.f},
                                                  {float(k), 0.f, 0.f, 2.f});
    const Parcel in = transport->exchange(out);
    std::size_t k = 0;
    for (int from = 0; from < n; ++from)
        for (int j = 0; j < from + me; ++j, ++k) {
            ASSERT_LT(k, in.size());
            EXPECT_EQ(in.id[k], static_cast<uint32_t>(1000 * from + me));
            EXPECT_EQ(in.pos[k].x, float(from));
            EXPECT_EQ(in.pos[k].z, float(j));
            EXPECT_EQ(in.vel[k].w, 2.f);
        }
    EXPECT_EQ(k, in.size());
    const std::vector<double> all = transport->all_gather({double(me), 0.5});
    ASSERT_EQ(all.size(), 2u * static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) EXPECT_EQ(all[2 * static_cast<std::size_t>(r)], double(r));
}

TEST(MpiRanks, TheRanksStepThePileAsOneSimulatorBitForBit) {
    const Params p = testing::one_step_params(Preset::Classic);
    const InitialState init = testing::preset_state(Preset::Classic, 3000, p);
    auto whole = gridded_cpu();
    whole->reset(init, p);
    for (int s = 0; s < 300; ++s) whole->step(p);
    const Snapshot mid = whole->download();
    for (int s = 0; s < 60; ++s) whole->step(p);
    const Snapshot expected = whole->download();

    const float halo = interaction_range(p);
    SlabDecomposition slabs = slabs_at_quantiles(init.domain, transport->size(), halo, mid.pos);
    RankStepper rank(*transport, slabs, init, p, gridded_cpu());
    rank.reset(mid.pos, mid.vel);
    double moved = 0, halo_seen = 0;
    for (int s = 0; s < 60; ++s) {
        rank.step(p);
        moved += double(rank.last().migrated);
        halo_seen += double(rank.last().halo);
    }
    const std::vector<double> counts = transport->all_gather({moved, halo_seen});
    double all_moved = 0, all_halo = 0;
    for (std::size_t r = 0; r < counts.size(); r += 2) {
        all_moved += counts[r];
        all_halo += counts[r + 1];
    }
    EXPECT_GT(all_halo, 0) << "no halo: the ranks never touched";
    const Snapshot got = rank.gather();
    if (transport->rank() != 0) {
        EXPECT_TRUE(got.pos.empty());
        return;
    }
    std::printf("  %d ranks: %.0f halo copies, %.0f particles crossed a cut over 60 steps\n",
                transport->size(), all_halo, all_moved);
    ASSERT_EQ(got.pos.size(), expected.pos.size());
    EXPECT_TRUE(same_bits(got.pos, expected.pos));
    EXPECT_TRUE(same_bits(got.vel, expected.vel));
}

// The frictional law over MPI: each particle's rotation and contact memory travel with it as a
// row of bytes (sim/ranks/friction_rows.h). A slumping block (contacts open, close, slide and
// roll): the ranks step it as one simulator does, bit for bit.
TEST(MpiRanks, TheRanksCarryTheFrictionalMemoryBitForBit) {
    const Params p = testing::sand();
    const InitialState init = testing::block_on_the_floor(p, 3000);
    const testing::Reference ref = testing::reference_run(*gridded_cpu(), init, p, 100, 40);
    const Snapshot& expected = ref.expected;

    const SlabDecomposition slabs =
        slabs_at_quantiles(init.domain, transport->size(), rank_halo(p), ref.start.pos);
    RankStepper rank(*transport, slabs, init, p, gridded_cpu());
    rank.reset(ref.start.pos, ref.start.vel, ref.start.friction);
    for (int s = 0; s < 40; ++s) rank.step(p);
    FrictionRecord memory;
    const Snapshot got = rank.gather(&memory);
    if (transport->rank() != 0) return;
    ASSERT_EQ(got.pos.size(), expected.pos.size());
    EXPECT_EQ(memory.omega.size(), expected.pos.size());
    EXPECT_TRUE(same_bits(got.pos, expected.pos));
    EXPECT_TRUE(same_bits(got.vel, expected.vel));
}

}  // namespace
}  // namespace plab::sim

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::unique_ptr<plab::sim::RankTransport> t = plab::sim::make_mpi_transport();
    plab::sim::transport = t.get();
    const int failed = RUN_ALL_TESTS();
    t.reset();  // MPI_Finalize, after every test
    return failed;
}
