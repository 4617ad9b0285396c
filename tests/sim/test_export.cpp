// Simulator::export_render on the CPU backend: what the renderer receives.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sim/color_map.h"
#include "sim/cpu_simulator.h"
#include "sim/error.h"
#include "sim/presets.h"

namespace plab::sim {
namespace {

TEST(ColorMap, RampEndsAndNan) {
    const Float4 lo = ramp(0.f), hi = ramp(1.f), over = ramp(7.f), nan = ramp(std::nanf(""));
    EXPECT_EQ(lo.z, 1.f);
    EXPECT_EQ(lo.x, 0.f);
    EXPECT_EQ(hi.x, 1.f);
    EXPECT_EQ(hi.z, 0.f);
    EXPECT_EQ(over.x, hi.x);
    EXPECT_EQ(over.y, hi.y);
    EXPECT_EQ(nan.x, 1.f);
    EXPECT_EQ(nan.z, 1.f);  // magenta
}

TEST(ColorMap, HashedColoursAreInRangeAndDiffer) {
    int same = 0;
    for (uint32_t k = 0; k < 1000; ++k) {
        const Float4 a = hashed_color(k), b = hashed_color(k + 1);
        for (float c : {a.x, a.y, a.z}) {
            EXPECT_GE(c, 0.f);
            EXPECT_LE(c, 1.f);
        }
        same += a.x == b.x && a.y == b.y && a.z == b.z;
    }
    EXPECT_EQ(same, 0);
}

TEST(ColorMap, ParseNamesTheModes) {
    EXPECT_EQ(parse_color_mode("cell"), ColorMode::Cell);
    EXPECT_THROW(parse_color_mode("rainbow"), Error);
}

class CpuExport : public ::testing::Test {
  protected:
    void SetUp() override {
        p_ = preset_params(Preset::Classic);
        sim_.reset(build_initial_state(preset_scene(Preset::Classic, 1000, p_), p_, 1000), p_);
        for (int i = 0; i < 20; ++i) sim_.step(p_);
    }
    Params p_;
    CpuSimulator sim_;
};

TEST_F(CpuExport, PositionsCarryTheRadiusAndFollowTheState) {
    std::vector<Float4> pos(1000), color(1000);
    sim_.export_render({pos.data(), color.data(), pos.size(), false}, {ColorMode::Speed, 0.01f});
    const Snapshot s = sim_.download();
    // Export is in the simulator's (cell) order: compare as sets of positions via sums.
    double ex = 0, sx = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        EXPECT_FLOAT_EQ(pos[i].w, p_.radius);
        EXPECT_EQ(color[i].w, 1.f);
        ex += pos[i].x;
        sx += s.pos[i].x;
    }
    EXPECT_NEAR(ex, sx, 1e-3);
}

TEST_F(CpuExport, ColourModesDiffer) {
    std::vector<Float4> pos(1000), a(1000), b(1000);
    sim_.export_render({pos.data(), a.data(), 1000, false}, {ColorMode::ParticleId, 1.f});
    sim_.export_render({pos.data(), b.data(), 1000, false}, {ColorMode::Cell, 1.f});
    int differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ += a[i].x != b[i].x || a[i].y != b[i].y;
    EXPECT_GT(differ, 500);
}

TEST_F(CpuExport, HostStagingHoldsTheSameExport) {
    std::vector<Float4> pos(1000), color(1000);
    sim_.export_render({pos.data(), color.data(), 1000, false}, {ColorMode::Speed, 0.01f});
    Float4* staging = sim_.host_staging(1000);
    sim_.export_render({staging, staging + 1000, 1000, false}, {ColorMode::Speed, 0.01f});
    for (std::size_t i = 0; i < 1000; ++i) {
        EXPECT_EQ(staging[i].x, pos[i].x);
        EXPECT_EQ(staging[1000 + i].y, color[i].y);
    }
}

TEST_F(CpuExport, AsyncExportGivesTheHostCopysBuffers) {
    const RenderStyle style{ColorMode::Speed, 0.01f};
    EXPECT_EQ(sim_.wait_export_async().count, 0u);  // none started yet
    std::vector<Float4> pos(1000), color(1000);
    sim_.export_render({pos.data(), color.data(), 1000, false}, style);
    sim_.export_render_async(style);
    const HostRenderFrame frame = sim_.wait_export_async();
    ASSERT_EQ(frame.count, 1000u);
    EXPECT_EQ(0, std::memcmp(frame.positions, pos.data(), 1000 * sizeof(Float4)));
    EXPECT_EQ(0, std::memcmp(frame.colors, color.data(), 1000 * sizeof(Float4)));
}

TEST_F(CpuExport, AsyncExportKeepsThePreviousFrameUntilTheOneAfterNext) {
    const RenderStyle style{ColorMode::Speed, 0.01f};
    sim_.export_render_async(style);
    const HostRenderFrame first = sim_.wait_export_async();
    const std::vector<Float4> first_pos(first.positions, first.positions + first.count);
    for (int i = 0; i < 5; ++i) sim_.step(p_);
    // The next export goes to the other buffer: the first one is still readable and unchanged.
    sim_.export_render_async(style);
    const HostRenderFrame second = sim_.wait_export_async();
    EXPECT_NE(second.positions, first.positions);
    EXPECT_EQ(0, std::memcmp(first.positions, first_pos.data(), 1000 * sizeof(Float4)));
    // And the second holds the state after the steps, as the host copy does.
    std::vector<Float4> pos(1000), color(1000);
    sim_.export_render({pos.data(), color.data(), 1000, false}, style);
    EXPECT_EQ(0, std::memcmp(second.positions, pos.data(), 1000 * sizeof(Float4)));
    EXPECT_NE(0, std::memcmp(second.positions, first_pos.data(), 1000 * sizeof(Float4)));
}

TEST_F(CpuExport, TooSmallOrDeviceTargetIsRefused) {
    std::vector<Float4> pos(999), color(999);
    EXPECT_THROW(sim_.export_render({pos.data(), color.data(), 999, false}, {}), Error);
    pos.resize(1000);
    color.resize(1000);
    EXPECT_THROW(sim_.export_render({pos.data(), color.data(), 1000, true}, {}), Error);
}

}  // namespace
}  // namespace plab::sim
