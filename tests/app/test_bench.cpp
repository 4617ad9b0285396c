// `particle-lab bench` end to end on the CPU backend, and its error paths.
#include <gtest/gtest.h>

#include <sstream>

#include "app/lab/bench.h"
#include "app/lab/percentile.h"
#include "sim/error.h"

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
    std::ostringstream out;
    run_bench(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"backend      cpu", "preset granular", "particles    2000", "grid build", "sort/reorder",
          "forces", "integrate", "median step", "steps/s", "0 non-finite"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
}

TEST(Bench, SceneFileReplacesThePresetAndGivesTheCount) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.steps = 2;
    c.warmup = 0;
    c.scene = std::string(PLAB_SCENES_DIR) + "/mixer.json";
    c.particles_given = false;
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
    std::ostringstream out;
    run_bench(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want : {"model        sph", "scene hydrostatic_tank", "particles    3000",
                             "liquid        density", "CFL number", "in reach per particle"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    EXPECT_EQ(s.find("DIVERGED"), std::string::npos) << s;
}

TEST(Bench, BadConfigurationIsAClearError) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    std::ostringstream out;
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
