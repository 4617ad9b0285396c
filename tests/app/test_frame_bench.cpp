// `particle-lab bench --render`: whole headless frames through EGL (Mesa here, the NVIDIA
// driver on a GPU host). Skipped where no EGL display can be made.
#include <gtest/gtest.h>

#include <sstream>

#include "app/lab/bench.h"
#include "render/egl_context.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

TEST(FrameBench, RenderedFramesThroughTheHostPath) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 3000;
    c.steps = 4;
    c.warmup = 1;
    c.render = "host";
    c.width = 320;
    c.height = 200;
    std::ostringstream out;
    try {
        run_bench(c, out, nullptr);
    } catch (const render::EglUnavailable& e) {
        GTEST_SKIP() << "no EGL display here: " << e.what();
    }
    const std::string s = out.str();
    for (const char* want : {"frame bench", "host round trip", "simulation step", "export kernel",
                             "draw scene", "FPS"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
}

TEST(FrameBench, TheCudaRendererOnTheCpuBackendSaysWhyTheSpritesDraw) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 1000;
    c.steps = 2;
    c.warmup = 0;
    c.render = "host";
    c.width = 160;
    c.height = 120;
    c.options.renderer = sim::kRendererCuda;
    std::ostringstream out;
    try {
        run_bench(c, out, nullptr);
    } catch (const render::EglUnavailable& e) {
        GTEST_SKIP() << "no EGL display here: " << e.what();
    }
    const std::string s = out.str();
    for (const char* want : {"renderer     gl: point sprites", "CUDA backend only", "draw scene"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    EXPECT_EQ(s.find("renderer: splat"), std::string::npos) << s;
}

TEST(FrameBench, TheMaterialLookWithTheGlSpritesSaysTheDataLookIsDrawn) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 1000;
    c.steps = 2;
    c.warmup = 0;
    c.render = "host";
    c.width = 160;
    c.height = 120;
    c.look = "material";
    std::ostringstream out;
    try {
        run_bench(c, out, nullptr);
    } catch (const render::EglUnavailable& e) {
        GTEST_SKIP() << "no EGL display here: " << e.what();
    }
    const std::string s = out.str();
    EXPECT_NE(s.find("look         material asked, data drawn: the material look is drawn by "
                     "the CUDA renderer"),
              std::string::npos)
        << s;
    c.look = "shiny";
    EXPECT_THROW(run_bench(c, out, nullptr), Error);
}

TEST(FrameBench, RenderModeIsChecked) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.render = "sometimes";
    std::ostringstream out;
    try {
        run_bench(c, out, nullptr);
        FAIL() << "expected an error";
    } catch (const render::EglUnavailable& e) {
        GTEST_SKIP() << "no EGL display here: " << e.what();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--render"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace plab::app
