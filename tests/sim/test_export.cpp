// Simulator::export_render on the CPU backend: what the renderer receives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/physics/color_map.h"

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

bool same_color(Float4 a, Float4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

TEST(ColorMap, SpinRampsTheAngularSpeedById) {
    const Float4 omega[] = {{0.f, 0.f, 0.f, 0.f},
                            {30.f, 0.f, 40.f, 0.f},  // |ω| = 50 rad/s
                            {0.f, -500.f, 0.f, 0.f},
                            {std::nanf(""), 0.f, 0.f, 0.f}};
    RenderStyle style;
    style.color = ColorMode::Spin;
    style.spin_scale = 100.f;
    style.spins = true;
    const Float4 fast_velocity{9.f, 9.f, 9.f, 0.f};  // the speed plays no part
    EXPECT_TRUE(same_color(particle_color(style, fast_velocity, 0, 7, omega), ramp(0.f)));
    EXPECT_TRUE(same_color(particle_color(style, fast_velocity, 1, 7, omega), ramp(0.5f)));
    EXPECT_TRUE(same_color(particle_color(style, {}, 2, 7, omega), ramp(1.f)));  // past the top
    EXPECT_TRUE(same_color(particle_color(style, {}, 3, 7, omega), ramp(std::nanf(""))));
    style.spin_scale = 50.f;
    EXPECT_TRUE(same_color(particle_color(style, {}, 1, 7, omega), ramp(1.f)));
    // Before the law's first step there are no rotations yet: at rest, the ramp's bottom.
    EXPECT_TRUE(same_color(particle_color(style, fast_velocity, 1, 7, nullptr), ramp(0.f)));
    // A law without rotation shows the flat grey, off the ramp, whatever it is given.
    style.spins = false;
    const Float4 grey = no_spin_color();
    EXPECT_TRUE(same_color(particle_color(style, {}, 1, 7, omega), grey));
    EXPECT_TRUE(same_color(particle_color(style, {}, 1, 7, nullptr), grey));
    for (const float t : {0.f, 0.25f, 0.5f, 0.75f, 1.f}) EXPECT_FALSE(same_color(ramp(t), grey));
    // The other maps ignore the rotations.
    style.color = ColorMode::Speed;
    EXPECT_TRUE(same_color(particle_color(style, fast_velocity, 1, 7, omega),
                           particle_color(style, fast_velocity, 1, 7)));
}

TEST(ColorMap, SpinSaysWhenTheRunHasNoRotation) {
    EXPECT_EQ(parse_color_mode("spin"), ColorMode::Spin);
    EXPECT_EQ(color_mode_name(ColorMode::Spin), "spin");
    const Params classic = preset_params(Preset::Granular), water = preset_params(Preset::Water);
    const Params sand = preset_params(Preset::Sand);
    EXPECT_NE(color_mode_note(ColorMode::Spin, classic).find("contact = classic"),
              std::string::npos);
    EXPECT_NE(color_mode_note(ColorMode::Spin, water).find("SPH"), std::string::npos);
    EXPECT_EQ(color_mode_note(ColorMode::Spin, sand), "");
    EXPECT_TRUE(has_rotation(sand));
    EXPECT_FALSE(has_rotation(classic));
    for (const auto& row : color_mode_names()) {
        if (row.value != ColorMode::Spin) {
            EXPECT_EQ(color_mode_note(row.value, classic), "");
        }
    }
}

// A frictional state restored with one particle spinning: the export's spin colours tell it
// from the still ones, and a run without the law shows grey.
TEST(CpuSpinExport, ColoursASpinningParticleApartFromStillOnes) {
    const Params p = preset_params(Preset::Sand);
    const std::size_t n = 64;
    InitialState init = build_initial_state(preset_scene(Preset::Sand, n, p), p, n);
    init.friction.omega.assign(n, Float4{});
    init.friction.omega[5] = {0.f, 0.f, 80.f, 0.f};  // rad/s
    CpuSimulator sim;
    sim.reset(init, p);
    RenderStyle style;
    style.color = ColorMode::Spin;
    style.spin_scale = 100.f;
    style.spins = true;
    std::vector<Float4> pos(n), color(n);
    sim.export_render({pos.data(), color.data(), n, false}, style);
    // No memory order given: memory holds the ids in order.
    EXPECT_TRUE(same_color(color[5], ramp(0.8f)));
    for (std::size_t i = 0; i < n; ++i) {
        if (i != 5) {
            EXPECT_TRUE(same_color(color[i], ramp(0.f))) << i;
        }
    }
    // After steps the export follows the state's rotations, whatever the memory order.
    for (int i = 0; i < 3; ++i) sim.step(p);
    sim.export_render({pos.data(), color.data(), n, false}, style);
    const InitialState now = sim.capture_state();
    ASSERT_EQ(now.friction.omega.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        const Float4 w = now.friction.omega[now.order[i]];
        EXPECT_TRUE(
            same_color(color[i], ramp(std::sqrt(w.x * w.x + w.y * w.y + w.z * w.z) / 100.f)));
    }
    // A run whose law has no rotation: grey, never the ramp's blue.
    const Params classic = preset_params(Preset::Granular);
    CpuSimulator plain;
    plain.reset(build_initial_state(preset_scene(Preset::Granular, n, classic), classic, n),
                classic);
    plain.step(classic);
    style.spins = has_rotation(classic);
    plain.export_render({pos.data(), color.data(), n, false}, style);
    for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(same_color(color[i], no_spin_color())) << i;
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
