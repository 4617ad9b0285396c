// CUDA-GL interop against the host round trip: for the same simulator state, the vertex
// buffers filled through mapped interop buffers and through host arrays + glBufferSubData
// hold the same bytes. Needs a CUDA device and a GL context on it (EGL device platform);
// anywhere else the test reports skipped with the reason.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "render/egl_context.h"
#include "render/gl_check.h"
#include "render/interop_buffer.h"
#include "render/particle_feed.h"
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::render {
namespace {

std::vector<sim::Float4> read_buffer(GLuint buffer, std::size_t count) {
    std::vector<sim::Float4> out(count);
    PLAB_GL_CHECK(glGetNamedBufferSubData(
        buffer, 0, static_cast<GLsizeiptr>(count * sizeof(sim::Float4)), out.data()));
    return out;
}

bool same_bytes(const std::vector<sim::Float4>& a, const std::vector<sim::Float4>& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), a.size() * sizeof(sim::Float4)) == 0;
}

TEST(Interop, InteropAndHostCopyFillIdenticalBuffers) {
    PLAB_SKIP_WITHOUT_CUDA();
    std::unique_ptr<EglContext> context;
    try {
        context = std::make_unique<EglContext>();
    } catch (const EglUnavailable& e) {
        GTEST_SKIP() << e.what();
    }
    std::printf("GL_RENDERER: %s\n", context->renderer().c_str());
    const std::string no_interop = interop_unavailable_reason();
    if (!no_interop.empty()) GTEST_SKIP() << "no CUDA-GL interop: " << no_interop;

    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    constexpr std::size_t kCount = 100'000;
    std::unique_ptr<sim::Simulator> simulator = sim::make_simulator(sim::Backend::Cuda);
    simulator->reset(sim::build_initial_state(
                         sim::preset_scene(sim::Preset::Classic, kCount, params), params, kCount),
                     params);
    for (int i = 0; i < 50; ++i) simulator->step(params);
    simulator->synchronize();

    // Spin on the classic law: the flat grey of a run without rotation, through both paths.
    for (const sim::ColorMode mode : {sim::ColorMode::Speed, sim::ColorMode::ParticleId,
                                      sim::ColorMode::Cell, sim::ColorMode::Spin}) {
        SCOPED_TRACE(std::string(sim::color_mode_name(mode)));
        const sim::RenderStyle style{mode, 0.05f};
        ParticleFeed interop;
        ParticleFeed host;
        interop.reserve(kCount);
        host.reserve(kCount);
        // Twice each: the second interop feed reuses the registrations.
        for (int round = 0; round < 2; ++round) {
            EXPECT_EQ(interop.feed(*simulator, style, FeedPath::Interop).path, FeedPath::Interop);
            EXPECT_EQ(host.feed(*simulator, style, FeedPath::HostCopy).path, FeedPath::HostCopy);
        }
        PLAB_GL_CHECK(glFinish());
        const auto interop_pos = read_buffer(interop.positions(), kCount);
        const auto host_pos = read_buffer(host.positions(), kCount);
        EXPECT_TRUE(same_bytes(interop_pos, host_pos));
        EXPECT_TRUE(
            same_bytes(read_buffer(interop.colors(), kCount), read_buffer(host.colors(), kCount)));
        // Real data, not two zero-filled buffers: w is the radius.
        EXPECT_FLOAT_EQ(interop_pos[kCount / 2].w, params.radius);
    }
}

TEST(Interop, ReasonIsGivenWhenUnavailable) {
    // Without a GL context on a CUDA device (e.g. Mesa), interop must say why not.
    std::unique_ptr<EglContext> context;
    try {
        context = std::make_unique<EglContext>();
    } catch (const EglUnavailable& e) {
        GTEST_SKIP() << e.what();
    }
    const std::string reason = interop_unavailable_reason();
    const bool nvidia = context->renderer().find("NVIDIA") != std::string::npos;
    if (nvidia && sim::cuda_unavailable_reason().empty()) {
        EXPECT_TRUE(reason.empty()) << reason;
    } else {
        EXPECT_FALSE(reason.empty()) << "interop claimed usable on " << context->renderer();
    }
}

}  // namespace
}  // namespace plab::render
