// `mpirun -n K particle-lab bench` (app/lab/rank_bench.h), run by ctest under mpiexec with 1, 2
// and 4 processes: the classic pile stepped over the ranks and saved as one checkpoint equals
// the plain single-process bench bit for bit, a checkpoint continues on any rank count, and what
// the ranks cannot run yet is refused on every rank.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include "app/lab/bench.h"
#include "app/lab/export_run.h"
#include "app/lab/rank_bench.h"
#include "app/lab/rank_export.h"
#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/ranks/mpi_transport.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

sim::RankTransport* transport = nullptr;  // the job's, made in main
std::string shared_dir;                   // a folder every rank reads (argv[1]), or none

BenchConfig pile(int warmup, int steps) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.preset = "classic";
    c.particles = 3000;
    c.window = "start";
    c.warmup = warmup;
    c.steps = steps;
    // The grid every step, memory in id order, no atomics: the force sums in the same order
    // on one process as on the ranks (test_rank_stepper.cpp says why).
    c.options.neighbour_list = sim::kOff;
    c.options.sorted_memory = false;
    c.options.deterministic = true;
    return c;
}

// The state in id order (a checkpoint holds memory order and the id at each slot).
std::vector<sim::Float4> by_id(const std::vector<sim::Float4>& v,
                               const std::vector<uint32_t>& order) {
    if (order.empty()) return v;
    std::vector<sim::Float4> out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[order[k]] = v[k];
    return out;
}

bool same_bits(const std::vector<sim::Float4>& a, const std::vector<sim::Float4>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

TEST(RankBench, TheRanksSaveWhatOneProcessSavesBitForBit) {
    const test::TempDir dir;
    BenchConfig ranks = pile(100, 50);
    ranks.save = (dir / "ranks.plab").string();
    std::ostringstream out;
    ASSERT_TRUE(run_rank_bench(ranks, *transport, out));
    if (transport->rank() != 0) return;
    const std::string text = out.str();
    EXPECT_NE(text.find("over " + std::to_string(transport->size()) + " ranks (MPI)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("total"), std::string::npos) << text;

    BenchConfig one = pile(100, 50);
    one.save = (dir / "one.plab").string();
    std::ostringstream plain;
    ASSERT_TRUE(run_bench(one, plain, nullptr));
    const sim::Checkpoint a = sim::load_checkpoint(ranks.save);
    const sim::Checkpoint b = sim::load_checkpoint(one.save);
    EXPECT_EQ(a.run.steps, b.run.steps);
    EXPECT_EQ(a.run.time, b.run.time);
    EXPECT_TRUE(same_bits(by_id(a.state.pos, a.state.order), by_id(b.state.pos, b.state.order)))
        << transport->size() << " ranks against one process: positions differ";
    EXPECT_TRUE(same_bits(by_id(a.state.vel, a.state.order), by_id(b.state.vel, b.state.order)))
        << transport->size() << " ranks against one process: velocities differ";

    // The gathered checkpoint continues on one process.
    BenchConfig resumed = pile(0, 5);
    resumed.load = ranks.save;
    resumed.checkpoint = std::make_shared<const sim::Checkpoint>(a);
    resumed.options = a.run.options;
    EXPECT_TRUE(run_bench(resumed, plain, nullptr)) << plain.str();
}

// Every rank waits here for the others (an all-gather is a barrier).
void barrier() { transport->all_gather({0.0}); }

BenchConfig loading(const std::string& path, int steps) {
    BenchConfig c = pile(0, steps);
    auto ck = std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(path));
    c.load = path;
    c.options = ck->run.options;
    c.checkpoint = std::move(ck);
    return c;
}

TEST(RankBench, ContinuesAOneProcessCheckpointOnAnyRankCount) {
    if (shared_dir.empty()) GTEST_SKIP() << "no folder shared by the ranks given (argv[1])";
    const std::string start = shared_dir + "/one_process.plab";
    if (transport->rank() == 0) {
        std::filesystem::create_directories(shared_dir);
        BenchConfig one = pile(60, 20);
        one.save = start;
        std::ostringstream out;
        ASSERT_TRUE(run_bench(one, out, nullptr));
    }
    barrier();
    BenchConfig ranks = loading(start, 30);
    ranks.save = shared_dir + "/continued_on_ranks.plab";
    std::ostringstream out;
    ASSERT_TRUE(run_rank_bench(ranks, *transport, out));
    if (transport->rank() != 0) return;
    BenchConfig plain = loading(start, 30);
    plain.save = shared_dir + "/continued_on_one.plab";
    ASSERT_TRUE(run_bench(plain, out, nullptr));
    const sim::Checkpoint a = sim::load_checkpoint(ranks.save);
    const sim::Checkpoint b = sim::load_checkpoint(plain.save);
    EXPECT_EQ(a.run.steps, 110u);
    EXPECT_EQ(a.run.steps, b.run.steps);
    EXPECT_TRUE(same_bits(by_id(a.state.pos, a.state.order), by_id(b.state.pos, b.state.order)));
    EXPECT_TRUE(same_bits(by_id(a.state.vel, a.state.order), by_id(b.state.vel, b.state.order)));
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// `--export` over the ranks: each frame gathered on rank 0 and written as one process writes
// it; the files equal one process's byte for byte (the same steps in the same order).
TEST(RankBench, TheRanksExportTheFramesOneProcessExports) {
    if (shared_dir.empty()) GTEST_SKIP() << "no folder shared by the ranks given (argv[1])";
    ExportConfig e;
    e.every = 2.0;  // four steps of the classic preset's dt
    e.duration = 8.0;
    e.folder = shared_dir + "/export_ranks";
    std::ostringstream out, progress;
    run_rank_export(pile(0, 1), e, *transport, out, progress);
    if (transport->rank() != 0) return;
    EXPECT_NE(out.str().find("gathered on rank 0"), std::string::npos) << out.str();
    ExportConfig one = e;
    one.folder = shared_dir + "/export_one";
    run_export(pile(0, 1), one, out, progress);
    for (const char* name : {"frame_000000.csv", "frame_000002.csv", "frame_000004.csv",
                             "frame_000004.vtk", "particles.vtk.series"}) {
        const std::string a = file_text(e.folder + "/" + name);
        EXPECT_FALSE(a.empty()) << name;
        EXPECT_EQ(a, file_text(one.folder + "/" + name)) << name << " differs";
    }
    EXPECT_FALSE(std::filesystem::exists(e.folder + "/frame_000005.csv"));
}

TEST(RankBench, RefusesWhatTheRanksCannotRunYet) {
    std::ostringstream out;
    BenchConfig pour = pile(0, 1);
    pour.scene = PLAB_SCENES_DIR "/pour.json";
    pour.particles_given = false;
    try {
        run_rank_bench(pour, *transport, out);
        FAIL() << "emitters and sinks ran over ranks";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("emitters and sinks"), std::string::npos) << e.what();
    }
    BenchConfig settled = pile(0, 1);
    settled.window = "settled";
    EXPECT_THROW(run_rank_bench(settled, *transport, out), Error);
}

}  // namespace
}  // namespace plab::app

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (argc > 1) plab::app::shared_dir = argv[1];
    std::unique_ptr<plab::sim::RankTransport> t = plab::sim::make_mpi_transport();
    plab::app::transport = t.get();
    const int failed = RUN_ALL_TESTS();
    t.reset();  // MPI_Finalize, after every test
    return failed;
}
