// The host round trips of ParticleFeed on the CPU backend, through EGL (Mesa here): the
// page-locked and asynchronous paths fill the vertex buffers with exactly what the pageable
// host copy does, the asynchronous one a frame later. Without any EGL display every test is
// skipped, not passed.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/bench_config.h"
#include "egl_test.h"
#include "render/gl_check.h"
#include "render/particle_feed.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"

namespace plab::render {
namespace {

constexpr std::size_t kCount = 3000;

struct Particles {
    std::vector<sim::Float4> pos, color;
};

bool same(const Particles& a, const Particles& b) {
    return a.pos.size() == b.pos.size() && a.color.size() == b.color.size() &&
           std::memcmp(a.pos.data(), b.pos.data(), a.pos.size() * sizeof(sim::Float4)) == 0 &&
           std::memcmp(a.color.data(), b.color.data(), a.color.size() * sizeof(sim::Float4)) == 0;
}

class ParticleFeedPaths : public testing::EglTest {
  protected:
    void SetUp() override {
        testing::EglTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        reset(kCount);
        for (int i = 0; i < 5; ++i) simulator_.step(params_);
    }

    void reset(std::size_t count) {
        simulator_.reset(
            sim::build_initial_state(sim::preset_scene(sim::Preset::Classic, count, params_),
                                     params_, count),
            params_);
    }

    // What a synchronous export of the current state writes.
    Particles exported() {
        const std::size_t n = simulator_.particle_count();
        Particles p{std::vector<sim::Float4>(n), std::vector<sim::Float4>(n)};
        simulator_.export_render({p.pos.data(), p.color.data(), n, false}, style_);
        return p;
    }

    // What the feed's vertex buffers hold for the simulator's particle count.
    static Particles drawn(const ParticleFeed& feed, std::size_t n) {
        Particles p{std::vector<sim::Float4>(n), std::vector<sim::Float4>(n)};
        const auto bytes = static_cast<GLsizeiptr>(n * sizeof(sim::Float4));
        PLAB_GL_CHECK(glGetNamedBufferSubData(feed.positions(), 0, bytes, p.pos.data()));
        PLAB_GL_CHECK(glGetNamedBufferSubData(feed.colors(), 0, bytes, p.color.data()));
        return p;
    }

    sim::Params params_ = sim::preset_params(sim::Preset::Classic);
    sim::CpuSimulator simulator_;
    sim::RenderStyle style_{sim::ColorMode::Speed, 0.01f};
};

TEST_F(ParticleFeedPaths, EveryHostPathFillsTheSameBuffers) {
    const Particles want = exported();
    for (FeedPath path : {FeedPath::HostCopy, FeedPath::PinnedCopy, FeedPath::PinnedAsync}) {
        SCOPED_TRACE(feed_path_name(path));
        ParticleFeed feed;
        feed.reserve(kCount);
        EXPECT_EQ(feed.feed(simulator_, style_, path).path, path);
        EXPECT_TRUE(same(drawn(feed, kCount), want));
    }
}

TEST_F(ParticleFeedPaths, PinnedAsyncDrawsTheExportOfTheFrameBefore) {
    ParticleFeed feed;
    feed.reserve(2 * kCount);
    // First frame: nothing in flight, so it waits for its own export.
    const Particles frame0 = exported();
    feed.feed(simulator_, style_, FeedPath::PinnedAsync);
    EXPECT_TRUE(same(drawn(feed, kCount), frame0));
    // Then each frame draws the particles exported by the one before, not its own.
    for (int frame = 1; frame <= 3; ++frame) {
        SCOPED_TRACE(frame);
        const Particles before = exported();
        simulator_.step(params_);
        ASSERT_FALSE(same(exported(), before)) << "the step moved nothing";
        feed.feed(simulator_, style_, FeedPath::PinnedAsync);
        EXPECT_TRUE(same(drawn(feed, kCount), before));
    }
    // After a frame on another path, the in-flight export is stale: the next asynchronous
    // frame waits for its own again.
    simulator_.step(params_);
    feed.feed(simulator_, style_, FeedPath::HostCopy);
    simulator_.step(params_);
    feed.feed(simulator_, style_, FeedPath::PinnedAsync);
    EXPECT_TRUE(same(drawn(feed, kCount), exported()));
    // So after a new particle count: an export of the old count is never drawn.
    reset(2 * kCount);
    feed.feed(simulator_, style_, FeedPath::PinnedAsync);
    EXPECT_TRUE(same(drawn(feed, 2 * kCount), exported()));
}

// `bench --render` lists its modes where the lab is built without the renderer
// (app/lab/bench_config.h): they must be off and exactly the feed paths' names.
TEST(ParticleFeed, BenchRenderModesAreOffAndTheFeedPaths) {
    std::vector<std::string_view> want{"off"};
    for (const auto& row : feed_path_names()) want.push_back(row.name);
    std::vector<std::string_view> modes(std::begin(app::kRenderModes), std::end(app::kRenderModes));
    std::sort(want.begin(), want.end());
    std::sort(modes.begin(), modes.end());
    EXPECT_EQ(modes, want);
    for (const auto& row : feed_path_names())
        EXPECT_STREQ(feed_path_name(row.value), std::string(row.name).c_str());
}

}  // namespace
}  // namespace plab::render
