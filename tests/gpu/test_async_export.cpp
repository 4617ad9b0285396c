// The CUDA backend's asynchronous export (kernel on the simulator's stream, copy into
// page-locked memory on a second stream) against its synchronous host export: the same bytes,
// with steps queued behind it, with plain launches and with CUDA graphs, and never overwritten
// by the next export's kernel before its copy is done. Needs a CUDA device; where there is
// none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

struct Particles {
    std::vector<Float4> pos, color;
};

class AsyncExport : public ::testing::TestWithParam<bool> {  // param: steps as CUDA graphs
  protected:
    void SetUp() override {
        PLAB_SKIP_WITHOUT_CUDA();
        SimulatorOptions o;
        o.graph = GetParam();
        simulator_ = make_simulator(Backend::Cuda, nullptr, o);
        // Big enough that the copy (32 MiB) lasts several steps: a kernel that did not wait
        // for it would overwrite the staging mid-copy.
        simulator_->reset(
            build_initial_state(preset_scene(Preset::Classic, kCount, params_), params_, kCount),
            params_);
        for (int i = 0; i < 20; ++i) simulator_->step(params_);
    }

    Particles exported() {
        Particles p{std::vector<Float4>(kCount), std::vector<Float4>(kCount)};
        simulator_->export_render({p.pos.data(), p.color.data(), kCount, false}, style_);
        return p;
    }

    static bool same(const HostRenderFrame& f, const Particles& p) {
        return f.count == p.pos.size() &&
               std::memcmp(f.positions, p.pos.data(), f.count * sizeof(Float4)) == 0 &&
               std::memcmp(f.colors, p.color.data(), f.count * sizeof(Float4)) == 0;
    }

    static constexpr std::size_t kCount = 1 << 20;
    Params params_ = preset_params(Preset::Classic);
    RenderStyle style_{ColorMode::Speed, 0.01f};
    std::unique_ptr<Simulator> simulator_;
};

TEST_P(AsyncExport, EqualsTheSynchronousExportWithStepsQueuedBehindIt) {
    EXPECT_EQ(simulator_->wait_export_async().count, 0u);  // none started yet
    HostRenderFrame previous;
    Particles previous_want;
    for (int frame = 0; frame < 6; ++frame) {
        SCOPED_TRACE(frame);
        for (int i = 0; i < 3; ++i) simulator_->step(params_);
        const Particles want = exported();
        simulator_->export_render_async(style_);
        // The next steps run on the simulator's stream while the copy runs on the other.
        for (int i = 0; i < 3; ++i) simulator_->step(params_);
        // The last frame's host buffer is untouched by the copy in flight (the other one).
        if (frame > 0) {
            EXPECT_TRUE(same(previous, previous_want));
        }
        const HostRenderFrame got = simulator_->wait_export_async();
        ASSERT_EQ(got.count, kCount);
        EXPECT_TRUE(same(got, want));
        if (frame > 0) {
            EXPECT_NE(got.positions, previous.positions);
        }
        EXPECT_FLOAT_EQ(got.positions[kCount / 2].w, params_.radius);  // real data
        previous = got;
        previous_want = want;
    }
    EXPECT_GT(simulator_->last_export_ms(), 0.0);
}

TEST_P(AsyncExport, NextExportWaitsForTheCopyBeforeReusingTheStaging) {
    const Particles want = exported();
    simulator_->export_render_async(style_);
    // A step and a synchronous export right behind it: its kernel writes the same device
    // staging the copy is still reading, so it must wait for the copy.
    simulator_->step(params_);
    const Particles later = exported();
    EXPECT_TRUE(same(simulator_->wait_export_async(), want));
    EXPECT_FALSE(std::memcmp(later.pos.data(), want.pos.data(), kCount * sizeof(Float4)) == 0)
        << "the step moved nothing, so the test proves nothing";
}

INSTANTIATE_TEST_SUITE_P(Launches, AsyncExport, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                             return i.param ? "Graph" : "Plain";
                         });

}  // namespace
}  // namespace plab::sim
