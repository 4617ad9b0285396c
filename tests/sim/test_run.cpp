// The one run every front end holds (sim/run/run.h): a checkpoint continues with its own
// variants, rewind goes back to where the run started bit for bit, an assignment that needs a
// restart says so and takes effect at the next one, and a refused change keeps the run.
#include <gtest/gtest.h>

#include <cstring>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/run/run.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

RunStart small_start(const char* preset = "granular") {
    RunStart s;
    s.backend = Backend::Cpu;
    s.request.preset = preset;
    s.request.particles = 600;
    s.single_dt = true;
    return s;
}

bool same_state(Simulator& a, Simulator& b) {
    const InitialState x = a.capture_state(), y = b.capture_state();
    return x.pos.size() == y.pos.size() && x.order == y.order &&
           std::memcmp(x.pos.data(), y.pos.data(), x.pos.size() * sizeof(Float4)) == 0 &&
           std::memcmp(x.vel.data(), y.vel.data(), x.vel.size() * sizeof(Float4)) == 0;
}

TEST(SimRun, ALoadedCheckpointKeepsItsVariantsAndRewindsToItself) {
    const test::TempDir dir;
    RunStart start = small_start();
    start.options.deterministic = true;
    sim::Run a(start);
    for (int i = 0; i < 20; ++i) a.step();
    a.save(dir / "a.plab");
    for (int i = 0; i < 10; ++i) a.step();

    sim::Run b(small_start("classic"));  // started without variants, on another preset
    EXPECT_FALSE(b.options().deterministic);
    b.load(load_checkpoint(dir / "a.plab"));
    EXPECT_TRUE(b.options().deterministic) << "the checkpoint's variants come with it";
    EXPECT_TRUE(b.continues_checkpoint());
    EXPECT_EQ(b.steps(), 20u);
    for (int i = 0; i < 10; ++i) b.step();
    EXPECT_TRUE(same_state(a.simulator(), b.simulator()));
    EXPECT_EQ(b.time(), a.time());

    b.rewind();  // back to the checkpoint as it was loaded
    EXPECT_EQ(b.steps(), 20u);
    for (int i = 0; i < 10; ++i) b.step();
    EXPECT_TRUE(same_state(a.simulator(), b.simulator()));
}

TEST(SimRun, AnAssignmentThatNeedsARestartSaysSoAndTakesEffectThere) {
    sim::Run run(small_start());
    const float radius = run.params().radius;
    EXPECT_FALSE(run.assign("damping", "0.5")) << "a live parameter";
    EXPECT_FLOAT_EQ(run.params().damping, 0.5f);
    EXPECT_TRUE(run.assign("radius", std::to_string(radius * 0.8f)));
    run.rewind();  // the scene again, with every assignment so far
    EXPECT_FLOAT_EQ(run.params().radius, radius * 0.8f);
    EXPECT_FLOAT_EQ(run.params().damping, 0.5f);
    EXPECT_EQ(run.steps(), 0u);
    EXPECT_EQ(run.params().substeps, 1) << "single_dt: each step is one dt";
}

// Each way a new run begins moves starts(); steps and parameter edits do not.
TEST(SimRun, StartsCountEveryRunBegunAndNothingElse) {
    sim::Run run(small_start("classic"));
    std::uint64_t starts = run.starts();
    run.step();
    Params p = run.params();
    p.spring *= 1.1f;
    run.set_params(p);
    EXPECT_EQ(run.starts(), starts) << "a step or a live edit began a run";
    run.restart(run.params());
    EXPECT_EQ(run.starts(), ++starts) << "restart";
    run.change_preset(Preset::Water);
    EXPECT_EQ(run.starts(), ++starts) << "preset";
    run.change_backend(Backend::Cpu, run.params());
    EXPECT_EQ(run.starts(), ++starts) << "backend";
    run.rewind();
    EXPECT_EQ(run.starts(), ++starts) << "rewind";
}

TEST(SimRun, ARefusedChangeKeepsTheRunningRun) {
    sim::Run run(small_start());
    for (int i = 0; i < 5; ++i) run.step();
    const std::size_t count = run.particle_count();
    const InitialState before = run.simulator().capture_state();
    EXPECT_THROW(run.assign("radius", "-1"), Error);
    Params bad = run.params();
    bad.dt = -1.f;
    EXPECT_THROW(run.set_params(bad), Error);
    EXPECT_THROW(run.restart(bad), Error);
    Checkpoint broken;
    broken.params = run.params();
    broken.state = before;
    broken.state.order[0] = broken.state.order[1];  // not a permutation: the reset refuses it
    EXPECT_THROW(run.load(broken), Error);
    EXPECT_EQ(run.particle_count(), count);
    EXPECT_EQ(run.steps(), 5u);
    const InitialState after = run.simulator().capture_state();
    EXPECT_EQ(std::memcmp(before.pos.data(), after.pos.data(), count * sizeof(Float4)), 0);
}

TEST(SimRun, ABadRequestOrCheckpointIsRefusedBeforeAnythingRuns) {
    RunStart s = small_start();
    s.request.preset = "no-such-preset";
    EXPECT_THROW(sim::Run{s}, Error);
    s = small_start();
    s.request.assignments = {"spring=-3"};
    EXPECT_THROW(sim::Run{s}, Error);
    s = small_start();
    s.checkpoint = std::make_shared<const Checkpoint>();  // holds no preset it knows
    s.request.model = "sph";
    EXPECT_THROW(sim::Run{s}, Error);
}

}  // namespace
}  // namespace plab::sim
