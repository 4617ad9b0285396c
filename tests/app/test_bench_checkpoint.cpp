// Checkpoints through `bench` and its options: --save at the end, --load continuing the run
// bit for bit, --save-every's files, and the option checks.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/bench.h"
#include "app/lab/checkpoint_options.h"
#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

BenchConfig plain(int warmup, int steps) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.preset = "granular";
    c.particles = 1500;
    c.window = "start";
    c.warmup = warmup;
    c.steps = steps;
    return c;
}

template <typename T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(BenchCheckpoint, LoadContinuesTheSavedRunBitForBit) {
    const test::TempDir dir;
    std::ostringstream out;
    // 10 + 20 steps, saved; loaded and 15 more; against 10 + 35 in one go.
    BenchConfig first = plain(10, 20);
    first.save = (dir / "first.plab").string();
    ASSERT_TRUE(run_bench(first, out, nullptr));
    BenchConfig resumed = plain(0, 15);
    resumed.load = first.save;
    resumed.save = (dir / "resumed.plab").string();
    ASSERT_TRUE(run_bench(resumed, out, nullptr));
    BenchConfig straight = plain(10, 35);
    straight.save = (dir / "straight.plab").string();
    ASSERT_TRUE(run_bench(straight, out, nullptr));

    const sim::Checkpoint a = sim::load_checkpoint(resumed.save);
    const sim::Checkpoint b = sim::load_checkpoint(straight.save);
    EXPECT_EQ(a.run.steps, 45u);
    EXPECT_EQ(b.run.steps, 45u);
    EXPECT_EQ(a.run.time, b.run.time);
    EXPECT_EQ(a.params, b.params);
    EXPECT_TRUE(same_bytes(a.state.pos, b.state.pos));
    EXPECT_TRUE(same_bytes(a.state.vel, b.state.vel));
    EXPECT_TRUE(same_bytes(a.state.order, b.state.order));
    EXPECT_NE(out.str().find("checkpoint " + first.save), std::string::npos) << out.str();
}

TEST(BenchCheckpoint, SaveEveryWritesAFileAtEachMultipleNamedByStep) {
    const test::TempDir dir;
    BenchConfig c = plain(0, 12);
    c.assignments = {"dt=0.0001"};
    c.save_every = 0.0004;  // every 4 steps
    c.save_dir = (dir / "every").string();
    std::ostringstream out;
    ASSERT_TRUE(run_bench(c, out, nullptr));
    for (const char* name : {"step_000000004.plab", "step_000000008.plab", "step_000000012.plab"})
        EXPECT_TRUE(fs::exists(dir / "every" / name)) << name;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / "every"), fs::directory_iterator{}), 3);
    EXPECT_EQ(sim::load_checkpoint(dir / "every" / "step_000000008.plab").run.steps, 8u);
}

TEST(BenchCheckpoint, RefusesABadFileOrModelBeforeAnyStep) {
    const test::TempDir dir;
    BenchConfig c = plain(0, 1);
    c.load = (dir / "missing.plab").string();
    std::ostringstream out;
    EXPECT_THROW(run_bench(c, out, nullptr), Error);
    BenchConfig save = plain(0, 1);
    save.save = (dir / "dem.plab").string();
    ASSERT_TRUE(run_bench(save, out, nullptr));
    BenchConfig wrong = plain(0, 1);
    wrong.load = save.save;
    wrong.model = "sph";
    try {
        run_bench(wrong, out, nullptr);
        FAIL() << "a DEM checkpoint ran as --model sph";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not match the checkpoint"), std::string::npos)
            << e.what();
    }
}

TEST(SaveEvery, ParsesSecondsAndAFolder) {
    EXPECT_FALSE(parse_save_every({}).on());
    const SaveEvery e = parse_save_every({"0.5", "out"});
    EXPECT_EQ(e.seconds, 0.5);
    EXPECT_EQ(e.dir, "out");
    EXPECT_EQ(save_every_path(e, 7), (fs::path("out") / "step_000000007.plab").string());
    for (const char* bad : {"0", "-1", "nan", "inf", "1e999", "x", ""})
        EXPECT_THROW(parse_save_every({bad, "out"}), Error) << bad;
    EXPECT_THROW(parse_save_every({"1", ""}), Error);
}

}  // namespace
}  // namespace plab::app
