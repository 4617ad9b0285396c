// `particle-lab bench` end to end on the CPU backend, and its error paths.
#include <gtest/gtest.h>

#include <sstream>

#include "app/lab/bench.h"
#include "app/lab/percentile.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

TEST(Percentile, KnownValues) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(percentile({0, 10}, 0.1), 1);
    EXPECT_DOUBLE_EQ(percentile({5}, 0.9), 5);
    EXPECT_TRUE(std::isnan(median({})));
}

TEST(Bench, PrintsConfigurationAndEveryStage) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 2000;
    c.steps = 5;
    c.warmup = 1;
    c.preset = "granular";
    c.assignments = {"shear=0.1"};
    c.window = "start";
    std::ostringstream out;
    run_bench(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"backend      cpu", "preset granular", "particles    2000", "grid build", "sort/reorder",
          "forces", "integrate", "median step", "steps/s", "0 non-finite",
          "window       the start: 5 steps after 1 warm-up steps", "roofline (copy rate",
          "host copy over", "x its floor"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
}

TEST(Bench, DemMeasuresTheSettledPileByDefault) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 300;
    c.steps = 3;
    c.warmup = 1;
    c.assignments = {"radius=0.0625"};  // a 16³-cell grid: the settling steps stay cheap
    std::ostringstream out;
    EXPECT_TRUE(run_bench(c, out, nullptr));
    const std::string s = out.str();
    const auto at = s.find("window       the settled pile: ");
    ASSERT_NE(at, std::string::npos) << s;
    EXPECT_NE(s.find("of its peak", at), std::string::npos) << s;
    EXPECT_LT(at, s.find("stage (")) << "said before the timings";

    BenchConfig bad = c;
    bad.window = "middle";
    EXPECT_THROW(run_bench(bad, out, nullptr), Error);
}

TEST(Bench, SceneFileReplacesThePresetAndGivesTheCount) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.steps = 2;
    c.warmup = 0;
    c.scene = std::string(PLAB_SCENES_DIR) + "/mixer.json";
    c.particles_given = false;
    c.window = "start";
    std::ostringstream out;
    run_bench(c, out, nullptr);
    EXPECT_NE(out.str().find("scene mixer"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("particles    27436"), std::string::npos) << out.str();
    c.particles = 1000;
    c.particles_given = true;
    std::ostringstream fewer;
    run_bench(c, fewer, nullptr);
    EXPECT_NE(fewer.str().find("particles    1000\n"), std::string::npos) << fewer.str();
    c.scene = "/no/such.json";
    EXPECT_THROW(run_bench(c, fewer, nullptr), Error);
}

TEST(Bench, SphSceneReportsTheLiquid) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.steps = 3;
    c.warmup = 0;
    c.scene = std::string(PLAB_SCENES_DIR) + "/hydrostatic_tank.json";
    c.particles = 3000;
    c.particles_given = true;
    c.model = "sph";
    c.flow_time = 0.002;  // the flow window: every step of the first 2 ms
    std::ostringstream out;
    run_bench(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want : {"model        sph", "scene hydrostatic_tank", "particles    3000",
                             "window       the flow: every step of its first 0.002 s",
                             "liquid        density", "CFL number", "in reach per particle"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    EXPECT_EQ(s.find("DIVERGED"), std::string::npos) << s;
}

TEST(Bench, ADivergedRunIsInvalidSaysSoFirstAndIsNoResult) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.window = "start";
    c.particles = 2000;
    c.steps = 3;
    c.warmup = 3;
    c.assignments = {"gravity_y=-1"};  // the classic pile falls through itself
    std::ostringstream out;
    EXPECT_FALSE(run_bench(c, out, nullptr));
    const std::string s = out.str();
    const auto invalid = s.find("INVALID      the run diverged before the measured steps");
    ASSERT_NE(invalid, std::string::npos) << s;
    // Stopped at once: no timing at all, the reason and the verdict for scripts.
    EXPECT_NE(s.find("Stopped there: no step was measured"), std::string::npos) << s;
    EXPECT_EQ(s.find("stage ("), std::string::npos) << s;
    EXPECT_EQ(s.find("median step"), std::string::npos) << s;
    EXPECT_EQ(s.find("roofline"), std::string::npos) << s;
    EXPECT_NE(s.find("DIVERGED"), std::string::npos) << s;

    // The settle window ends at the first check that finds the pile blown up, however long
    // the window could have run.
    c.window = "settled";
    std::ostringstream settling;
    EXPECT_FALSE(run_bench(c, settling, nullptr));
    EXPECT_NE(settling.str().find("INVALID      the run diverged while the pile settled"),
              std::string::npos)
        << settling.str();
    EXPECT_NE(settling.str().find("the settled pile: blew up, stopped after 250 steps"),
              std::string::npos)
        << settling.str();
    c.window = "start";

    c.assignments.clear();
    std::ostringstream sound;
    EXPECT_TRUE(run_bench(c, sound, nullptr));
    EXPECT_EQ(sound.str().find("INVALID"), std::string::npos) << sound.str();
}

TEST(Bench, BadConfigurationIsAClearError) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    std::ostringstream out;
    c.window = "start";
    auto fails = [&](BenchConfig bad) {
        try {
            run_bench(bad, out, nullptr);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    BenchConfig b = c;
    b.model = "sph";
    EXPECT_NE(fails(b).find("does not match"), std::string::npos);
    b.model = "lava";
    EXPECT_NE(fails(b).find("unknown model"), std::string::npos);
    b = c;
    b.preset = "sand";
    EXPECT_NE(fails(b).find("unknown preset"), std::string::npos);
    b = c;
    b.particles = 0;
    EXPECT_NE(fails(b).find("--particles"), std::string::npos);
    b = c;
    b.assignments = {"dt=-1"};
    EXPECT_NE(fails(b).find("dt"), std::string::npos);
}

}  // namespace
}  // namespace plab::app
