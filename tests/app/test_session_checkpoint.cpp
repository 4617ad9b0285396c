// The window's session and checkpoints: save and load continue the run exactly (with the
// simulated time and step count), --load starts a session from a file, and a load that fails
// leaves the running session as it was.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>

#include "app/viewer/window_run.h"
#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

AppConfig small_cpu_config() {
    AppConfig c;
    c.backend = sim::Backend::Cpu;
    c.run.preset = "granular";
    c.run.particles = 800;
    return c;
}

bool same_state(sim::Simulator& a, sim::Simulator& b) {
    const sim::InitialState x = a.capture_state(), y = b.capture_state();
    return x.pos.size() == y.pos.size() && x.order == y.order &&
           std::memcmp(x.pos.data(), y.pos.data(), x.pos.size() * sizeof(sim::Float4)) == 0 &&
           std::memcmp(x.vel.data(), y.vel.data(), x.vel.size() * sizeof(sim::Float4)) == 0;
}

TEST(SessionCheckpoint, SaveAndLoadContinueTheRun) {
    const test::TempDir dir;
    const fs::path file = dir / "session.plab";
    sim::Run a(window_start(small_cpu_config()));
    for (int i = 0; i < 10; ++i) a.step();
    a.save(file.string());
    for (int i = 0; i < 5; ++i) a.step();

    // Loaded into a running session of another preset and size.
    AppConfig other = small_cpu_config();
    other.run.preset = "classic";
    other.run.particles = 300;
    sim::Run b(window_start(other));
    b.load(sim::load_checkpoint(file), file.string());
    EXPECT_EQ(b.preset(), sim::Preset::Granular);
    EXPECT_EQ(b.particle_count(), 800u);
    const auto substeps = static_cast<std::uint64_t>(a.params().substeps);  // steps of dt a call
    EXPECT_EQ(b.steps(), 10 * substeps);
    for (int i = 0; i < 5; ++i) b.step();
    EXPECT_EQ(b.time(), a.time());
    EXPECT_EQ(b.steps(), 15 * substeps);
    EXPECT_TRUE(same_state(a.simulator(), b.simulator()));

    // --load: the session starts from the file.
    AppConfig loading = small_cpu_config();
    loading.load = file.string();
    loading.checkpoint = std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(file));
    sim::Run c(window_start(loading));
    for (int i = 0; i < 5; ++i) c.step();
    EXPECT_TRUE(same_state(a.simulator(), c.simulator()));
}

TEST(SessionCheckpoint, AFailedLoadLeavesTheRunningSession) {
    sim::Run s(window_start(small_cpu_config()));
    for (int i = 0; i < 3; ++i) s.step();
    const sim::InitialState before = s.simulator().capture_state();
    const double t = s.time();

    sim::Checkpoint bad;
    bad.run.preset = "classic";
    bad.params = sim::preset_params(sim::Preset::Classic);
    bad.state = before;
    bad.state.order[0] = bad.state.order[1];  // not a permutation: reset refuses it
    EXPECT_THROW(s.load(bad), Error);
    EXPECT_EQ(s.preset(), sim::Preset::Granular);
    EXPECT_EQ(s.time(), t);
    EXPECT_EQ(s.steps(), 3u * static_cast<std::uint64_t>(s.params().substeps));
    const sim::InitialState after = s.simulator().capture_state();
    EXPECT_EQ(after.order, before.order);
    EXPECT_EQ(std::memcmp(after.pos.data(), before.pos.data(), after.pos.size() * 16), 0);
}

}  // namespace
}  // namespace plab::app
