// The CUDA backend against the CPU reference on the same scenes. Needs a CUDA device; where
// there is none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sim/error.h"
#include "sim/cpu_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/presets.h"
#include "sim/simulator.h"
#include "sim/test_helpers.h"

namespace plab::sim {
namespace {

class CudaVsCpu : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string why = cuda_unavailable_reason();
        if (!why.empty()) GTEST_SKIP() << "no usable CUDA device: " << why;
    }
    std::unique_ptr<Simulator> cuda(SimulatorOptions o = {}) {
        return make_simulator(Backend::Cuda, nullptr, o);
    }
};

// Per cell, the set of ids it holds (the order inside a cell depends on atomics).
std::map<uint32_t, std::multiset<uint32_t>> ids_per_cell(const GridSnapshot& g) {
    std::map<uint32_t, std::multiset<uint32_t>> out;
    for (std::size_t k = 0; k < g.sorted_id.size(); ++k) out[g.sorted_cell[k]].insert(g.sorted_id[k]);
    return out;
}

void expect_same_grid(const InitialState& init, const Params& p, SimulatorOptions o = {}) {
    CpuSimulator cpu;
    auto gpu = make_simulator(Backend::Cuda, nullptr, o);
    cpu.reset(init, p);
    gpu->reset(init, p);
    const GridSnapshot a = cpu.build_grid();
    const GridSnapshot b = gpu->build_grid();
    EXPECT_EQ(a.cell_start, b.cell_start) << "per-cell counts differ";
    EXPECT_EQ(a.sorted_cell, b.sorted_cell) << "cell order differs";
    EXPECT_EQ(ids_per_cell(a), ids_per_cell(b)) << "cells hold different particles";
}

TEST_F(CudaVsCpu, GridBuildMatchesOnRandomAndClusteredInput) {
    Params p;
    p.radius = 0.02f;
    const Domain d{{-0.3f, 0.1f, -1.f}, {0.75f, 0.47f, 1.3f}};
    expect_same_grid(testing::state_from_positions(testing::random_positions(50000, d, 1), d,
                                                   p.radius),
                     p);
    expect_same_grid(testing::state_from_positions(testing::clustered_positions(50000, d, 2), d,
                                                   p.radius),
                     p);
    std::vector<Vec3> one_cell(5000, Vec3{0.f, 0.2f, 0.f});
    expect_same_grid(testing::state_from_positions(one_cell, d, p.radius), p);
    expect_same_grid(testing::state_from_positions({}, d, p.radius), p);
    expect_same_grid(testing::state_from_positions({{0.f, 0.2f, 0.f}}, d, p.radius), p);
}

TEST_F(CudaVsCpu, GridBuildMatchesForEveryBlockSize) {
    Params p;
    p.radius = 0.02f;
    const Domain d{{-1, -1, -1}, {1, 1, 1}};
    const auto init = testing::state_from_positions(testing::random_positions(30001, d, 3), d,
                                                    p.radius);
    for (int block : {32, 64, 128, 256, 512, 1024}) {
        SimulatorOptions o;
        o.block_size = block;
        expect_same_grid(init, p, o);
    }
}

// Largest distance between the two backends' particle positions after `steps` steps.
double max_position_difference(Simulator& gpu, Preset preset, std::size_t n, int steps) {
    const Params p = preset_params(preset);
    const InitialState init = build_initial_state(preset_scene(preset, n, p), p, n);
    CpuSimulator cpu;
    cpu.reset(init, p);
    gpu.reset(init, p);
    Params one = p;
    one.substeps = 1;
    for (int i = 0; i < steps; ++i) {
        cpu.step(one);
        gpu.step(one);
    }
    const Snapshot a = cpu.download(), b = gpu.download();
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        worst = std::max({worst, std::fabs(double(a.pos[i].x) - b.pos[i].x),
                          std::fabs(double(a.pos[i].y) - b.pos[i].y),
                          std::fabs(double(a.pos[i].z) - b.pos[i].z)});
        EXPECT_TRUE(std::isfinite(b.pos[i].x)) << i;
    }
    return worst;
}

// Both backends run the same formulas; they differ only in the order of the float sums
// (atomics decide the order inside a cell) and in fused multiply-adds on the GPU. After 100
// steps that stays below 1e-4 of a particle radius in the classic preset (measured: see
// docs/benchmarks.md), so 1e-3 radius is a tight bound that a wrong neighbour would break.
TEST_F(CudaVsCpu, ClassicPositionsAgreeAfter100Steps) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    const double diff = max_position_difference(*gpu, Preset::Classic, 20000, 100);
    RecordProperty("max_position_difference", std::to_string(diff));
    EXPECT_LT(diff, 1e-3 * p.radius);
}

TEST_F(CudaVsCpu, GranularPositionsAgreeAfter100Steps) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Granular);
    const double diff = max_position_difference(*gpu, Preset::Granular, 20000, 100);
    RecordProperty("max_position_difference", std::to_string(diff));
    EXPECT_LT(diff, 1e-3 * p.radius);
}

TEST_F(CudaVsCpu, GraphReplayMatchesPlainLaunches) {
    SimulatorOptions graph;
    graph.use_graph = true;
    auto a = cuda(), b = cuda(graph);
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 30000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    a->reset(init, p);
    b->reset(init, p);
    Params changed = p;
    for (int i = 0; i < 60; ++i) {
        if (i == 30) changed.spring = 0.4f;  // a parameter change must reach the graph
        a->step(changed);
        b->step(changed);
    }
    const Snapshot x = a->download(), y = b->download();
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(double(x.pos[i].y) - y.pos[i].y));
    EXPECT_LT(worst, 1e-3 * p.radius);
    const auto t = b->take_timings();
    ASSERT_EQ(t.size(), 60u);
    EXPECT_FALSE(t.back().has_stages);
    EXPECT_GT(t.back().total_ms, 0.0);
}

TEST_F(CudaVsCpu, StatsMatchTheCpu) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 10000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    CpuSimulator cpu;
    cpu.reset(init, p);
    gpu->reset(init, p);
    for (int i = 0; i < 50; ++i) {
        cpu.step(p);
        gpu->step(p);
    }
    const SimStats a = cpu.stats(p), b = gpu->stats(p);
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(b.non_finite, 0u);
    EXPECT_NEAR(a.max_speed, b.max_speed, 1e-4 * a.max_speed);
    EXPECT_NEAR(a.kinetic_energy, b.kinetic_energy, 1e-4 * a.kinetic_energy);
}

TEST_F(CudaVsCpu, StageTimingsComeFromTheDevice) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    gpu->reset(build_initial_state(preset_scene(Preset::Classic, 65536, p), p, 65536), p);
    for (int i = 0; i < 10; ++i) gpu->step(p);
    gpu->synchronize();
    const auto t = gpu->take_timings();
    ASSERT_EQ(t.size(), 10u);
    for (const auto& s : t) {
        EXPECT_TRUE(s.has_stages);
        EXPECT_GT(s.forces_ms, 0.0);
        EXPECT_NEAR(s.grid_ms + s.reorder_ms + s.forces_ms + s.integrate_ms, s.total_ms, 1e-3);
    }
    EXPECT_TRUE(gpu->take_timings().empty()) << "timings are handed out once";
}

TEST_F(CudaVsCpu, TooLargeRequestIsRefusedAndTheRunContinues) {
    auto gpu = cuda();
    Params p = preset_params(Preset::Classic);
    const std::size_t n = 1000;
    gpu->reset(build_initial_state(preset_scene(Preset::Classic, n, p), p, n), p);
#if PLAB_HAS_CUDA
    auto& device = dynamic_cast<cuda::CudaSimulator&>(*gpu);
    try {
        device.reserve((std::size_t{1} << 32) - 2, 1000);  // 4G particles × 80 B = 320 GiB
        FAIL() << "a 320 GiB request should be refused";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("MiB"), std::string::npos) << msg;
        EXPECT_NE(msg.find("particles would fit"), std::string::npos) << msg;
    }
#endif
    EXPECT_EQ(gpu->particle_count(), n);
    gpu->step(p);
    EXPECT_EQ(gpu->stats(p).non_finite, 0u);
}

}  // namespace
}  // namespace plab::sim
