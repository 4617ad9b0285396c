// Scene geometry on the CUDA backend: the bead slides down the tilted mesh as on the CPU and
// as the classic law predicts, a pile poured onto the mesh follows the CPU's, and a capture
// keeps the bodies.
#include <gtest/gtest.h>

#include <memory>

#include "sim/run/make_simulator.h"
#include "sim/slope_scene.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

using CudaGeometry = test::CudaTest;
using testing::Slope;

TEST_F(CudaGeometry, ABeadSlidesDownATiltedMeshAsOnTheCpu) {
    const Slope s;
    auto gpu = make_simulator(Backend::Cuda);
    const testing::Slide r = testing::slide(*gpu, s);
    EXPECT_NEAR(r.min_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.max_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.min_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_NEAR(r.max_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_LT(r.max_sideways, 1e-3f * s.steady_speed());
}

// Beads on a lattice above the slope, poured onto it together.
InitialState poured(const Slope& s) {
    std::vector<Vec3> pos;
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 10; ++j)
            for (int k = 0; k < 10; ++k)
                pos.push_back({-0.1f + 0.022f * i, 0.1f + 0.022f * j, -0.1f + 0.022f * k});
    InitialState init = testing::state_from_positions(pos, s.domain, s.params.radius);
    init.geometry = s.initial().geometry;
    return init;
}

TEST_F(CudaGeometry, APileOnTheMeshFollowsTheCpu) {
    const Slope s;
    const InitialState init = poured(s);
    auto cpu = make_simulator(Backend::Cpu);
    auto gpu = make_simulator(Backend::Cuda);
    cpu->reset(init, s.params);
    gpu->reset(init, s.params);
    // 0.2 s: the first beads reach the mesh after 0.1 s.
    for (int k = 0; k < 200; ++k) {
        cpu->step(s.params);
        gpu->step(s.params);
    }
    const Snapshot a = cpu->download(), b = gpu->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-2 * s.params.radius);
    int touching = 0;
    for (const Float4& q : b.pos) {
        EXPECT_GT(dot(xyz(q), s.normal), 0.f) << "a bead passed through the mesh";
        touching += s.overlap(xyz(q)) > 0.f;
    }
    EXPECT_GT(touching, 50) << "the pile should have reached the mesh";
}

TEST_F(CudaGeometry, ACaptureKeepsTheBodies) {
    const Slope s;
    auto gpu = make_simulator(Backend::Cuda);
    gpu->reset(poured(s), s.params);
    for (int k = 0; k < 150; ++k) gpu->step(s.params);
    const InitialState captured = gpu->capture_state();
    ASSERT_TRUE(captured.geometry);
    auto resumed = make_simulator(Backend::Cuda);
    resumed->reset(captured, s.params);
    for (int k = 0; k < 100; ++k) {
        gpu->step(s.params);
        resumed->step(s.params);
    }
    const Snapshot a = gpu->download(), b = resumed->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-2 * s.params.radius);
    for (const Float4& q : b.pos) EXPECT_GT(dot(xyz(q), s.normal), 0.f);
}

}  // namespace
}  // namespace plab::sim
