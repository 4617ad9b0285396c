// The CUDA backend against the CPU reference on the same scenes. Needs a CUDA device; where
// there is none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "gpu/cuda_vs_cpu_common.h"
#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#include "sim/cuda/device_buffer.h"
#endif
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/test_helpers.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

// Per cell, the set of ids it holds (the order inside a cell depends on atomics).
std::map<uint32_t, std::multiset<uint32_t>> ids_per_cell(const GridSnapshot& g) {
    std::map<uint32_t, std::multiset<uint32_t>> out;
    for (std::size_t k = 0; k < g.sorted_id.size(); ++k)
        out[g.sorted_cell[k]].insert(g.sorted_id[k]);
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
    expect_same_grid(
        testing::state_from_positions(testing::random_positions(50000, d, 1), d, p.radius), p);
    expect_same_grid(
        testing::state_from_positions(testing::clustered_positions(50000, d, 2), d, p.radius), p);
    std::vector<Vec3> one_cell(5000, Vec3{0.f, 0.2f, 0.f});
    expect_same_grid(testing::state_from_positions(one_cell, d, p.radius), p);
    expect_same_grid(testing::state_from_positions({}, d, p.radius), p);
    expect_same_grid(testing::state_from_positions({{0.f, 0.2f, 0.f}}, d, p.radius), p);
}

TEST_F(CudaVsCpu, GridBuildMatchesForEveryBlockSize) {
    Params p;
    p.radius = 0.02f;
    const Domain d{{-1, -1, -1}, {1, 1, 1}};
    const auto init =
        testing::state_from_positions(testing::random_positions(30001, d, 3), d, p.radius);
    for (int block : {32, 64, 128, 256, 512, 1024}) {
        SimulatorOptions o;
        o.block_size = block;
        expect_same_grid(init, p, o);
    }
}

// Both backends run the same formulas; they differ in the order of float sums (atomics order
// a cell's particles) and in fused multiply-adds. A dense granular pile is chaotic: on the
// CPU alone, moving every x by one ulp gives 2.7e-5 m (0.002 radius) after 30 classic steps
// and 0.02 m (1.3 radii) after 100. So particle by particle the backends must agree while
// that growth is small, and after 100 steps as closely as the CPU agrees with itself.
TEST_F(CudaVsCpu, ClassicTracksTheCpuParticleByParticleFor30Steps) {
    CpuSimulator cpu;
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    const Divergence d = run_pair(cpu, *gpu, Preset::Classic, 20000, 30);
    record("cuda_vs_cpu_30", d);
    EXPECT_LT(d.max, 1e-2 * p.radius);
    EXPECT_LT(d.median, 1e-4 * p.radius);
}

TEST_F(CudaVsCpu, ClassicAfter100StepsAgreesAsWellAsTheCpuWithItself) {
    CpuSimulator cpu, cpu2;
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    const Divergence self = run_pair(cpu, cpu2, Preset::Classic, 20000, 100, true);
    const Divergence d = run_pair(cpu, *gpu, Preset::Classic, 20000, 100);
    record("cpu_vs_cpu_one_ulp_100", self);
    record("cuda_vs_cpu_100", d);
    // Bounds: 10× the CPU's own one-ulp divergence for the median and the centre of mass,
    // and absolute limits that no wrong force could meet (a missed contact lets particles
    // pass through each other: radii, not hundredths of one).
    EXPECT_LT(d.median, std::max(10 * self.median, 1e-4 * p.radius));
    EXPECT_LT(d.centre_of_mass, std::max(10 * self.centre_of_mass, 1e-4 * p.radius));
    EXPECT_LT(d.median, 0.1 * p.radius);
    EXPECT_LT(d.max, 4 * p.radius);
    EXPECT_LT(d.energy, 0.01);
}

TEST_F(CudaVsCpu, GranularFreeFallAgreesFor100Steps) {
    // No contacts yet in the first 100 steps: gravity, drift and the grid, with nothing chaotic.
    CpuSimulator cpu;
    auto gpu = cuda();
    const Params p = preset_params(Preset::Granular);
    const Divergence d = run_pair(cpu, *gpu, Preset::Granular, 20000, 100);
    record("granular_cuda_vs_cpu_100", d);
    EXPECT_LT(d.max, 1e-4 * p.radius);
}

TEST_F(CudaVsCpu, EveryKernelVariantGivesTheSameStep) {
    // 1, 2, 4 and 8 threads per particle only split the neighbour rows, and fusing the drift
    // into the force kernel only moves where it runs: after a few steps every variant agrees
    // with the CPU to rounding.
    CpuSimulator cpu;
    const Params p = preset_params(Preset::Classic);
    for (bool fused : {true, false})
        for (int t : {1, 2, 4, 8}) {
            SimulatorOptions o;
            o.scatter_forces = kOff;  // the gather's shapes
            o.threads_per_particle = t;
            o.fuse_integrate = fused;
            auto gpu = cuda(o);
            const Divergence d = run_pair(cpu, *gpu, Preset::Classic, 30000, 10);
            EXPECT_LT(d.max, 1e-2 * p.radius) << t << " threads per particle, fused " << fused;
        }
    for (bool list : {true, false}) {
        SimulatorOptions o;
        o.scatter_forces = kOff;
        o.contact_list = list;
        auto gpu = cuda(o);
        EXPECT_LT(run_pair(cpu, *gpu, Preset::Classic, 30000, 10).max, 1e-2 * p.radius)
            << "contact list " << list;
    }
    // Scatter with atomics, switched on after construction (the force buffer is made then),
    // with its contacts listed first (the default) and in one pass.
    for (bool list : {true, false}) {
        SimulatorOptions scatter;
        scatter.scatter_forces = true;
        scatter.contact_list = list;
        auto gpu = cuda();
        gpu->set_options(scatter);
        const Divergence d = run_pair(cpu, *gpu, Preset::Classic, 30000, 10);
        if (list) record("scatter_vs_cpu_10", d);
        EXPECT_LT(d.max, 1e-2 * p.radius) << "scatter, contact list " << list;
    }
}

TEST_F(CudaVsCpu, GraphReplayMatchesPlainLaunchesAndSeesParameterChanges) {
    SimulatorOptions graph;
    graph.graph = true;
    auto plain = cuda(), replay = cuda(graph), unchanged = cuda(graph);
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 30000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    for (auto* s : {plain.get(), replay.get(), unchanged.get()}) s->reset(init, p);
    Params changed = p;
    for (int i = 0; i < 30; ++i) {
        if (i == 10) changed.spring = 0.3f;  // the graph baked in the old value: it must notice
        plain->step(changed);
        replay->step(changed);
        unchanged->step(p);
    }
    const Divergence same = divergence(*plain, *replay, p);
    const Divergence other = divergence(*plain, *unchanged, p);
    record("graph_vs_plain", same);
    record("changed_vs_unchanged", other);
    EXPECT_LT(same.max, 1e-2 * p.radius);
    EXPECT_GT(other.max, 10 * same.max) << "the spring change did not reach the graph";
    const auto t = replay->take_timings();
    ASSERT_EQ(t.size(), 30u);
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
    for (int i = 0; i < 10; ++i) {  // before chaos separates the two runs
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
    SimulatorOptions separate;
    separate.scatter_forces = kOff;
    separate.fuse_integrate = false;
    auto gpu = cuda(separate);
    const Params p = preset_params(Preset::Classic);
    gpu->reset(build_initial_state(preset_scene(Preset::Classic, 65536, p), p, 65536), p);
    for (int i = 0; i < 10; ++i) gpu->step(p);
    gpu->synchronize();
    const auto t = gpu->take_timings();
    ASSERT_EQ(t.size(), 10u);
    for (const auto& s : t) {
        EXPECT_TRUE(s.has_stages);
        EXPECT_GT(s.forces_ms, 0.0);
        EXPECT_GT(s.integrate_ms, 0.0);
        EXPECT_FALSE(s.integrate_fused);
        EXPECT_NEAR(s.grid_ms + s.reorder_ms + s.forces_ms + s.integrate_ms, s.total_ms, 1e-3);
    }
    EXPECT_TRUE(gpu->take_timings().empty()) << "timings are handed out once";
    SimulatorOptions gather;
    gather.scatter_forces = kOff;
    gpu->set_options(gather);  // fused: the integrate stage is part of the force stage
    gpu->step(p);
    gpu->synchronize();
    const auto fused = gpu->take_timings();
    ASSERT_EQ(fused.size(), 1u);
    EXPECT_TRUE(fused[0].integrate_fused);
    EXPECT_EQ(fused[0].integrate_ms, 0.0);
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

TEST_F(CudaVsCpu, CoincidentParticlesSeparateWithoutNan) {
    // Exactly coincident centres have no contact normal; both backends must push them apart
    // along the fallback axis, finite, and the same way. 64 in one place touch 63 each, more
    // than a thread lists (kContactSlots): the gather and the scatter compute the rest inline.
    Params p = preset_params(Preset::Classic);
    p.gravity_y = 0.f;
    const Domain d{{-1, -1, -1}, {1, 1, 1}};
    std::vector<Vec3> pos(64, Vec3{0.1f, 0.2f, 0.3f});
    pos.push_back({0.5f, 0.5f, 0.5f});
    const InitialState init = testing::state_from_positions(pos, d, p.radius);
    for (bool scatter : {false, true}) {
        CpuSimulator cpu;
        SimulatorOptions o;
        o.scatter_forces = scatter;
        auto gpu = cuda(o);
        cpu.reset(init, p);
        gpu->reset(init, p);
        for (int i = 0; i < 5; ++i) {
            cpu.step(p);
            gpu->step(p);
        }
        EXPECT_EQ(gpu->stats(p).non_finite, 0u) << "scatter " << scatter;
        const Snapshot a = cpu.download(), b = gpu->download();
        float spread = 0;
        for (std::size_t i = 0; i < pos.size(); ++i) {
            EXPECT_NEAR(a.pos[i].x, b.pos[i].x, 1e-3f * p.radius) << i << ", scatter " << scatter;
            spread = std::max(spread, std::fabs(b.pos[i].x - 0.1f));
        }
        EXPECT_GT(spread, 0.f) << "the stack should have started to separate";
    }
}

#if PLAB_HAS_CUDA
TEST_F(CudaVsCpu, ExportMatchesTheCpuOnDeviceAndThroughTheHost) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 5000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    CpuSimulator cpu;
    cpu.reset(init, p);
    gpu->reset(init, p);  // no step yet: both hold the same state in the same (id) order
    for (ColorMode mode : {ColorMode::Speed, ColorMode::ParticleId, ColorMode::Cell}) {
        const RenderStyle style{mode, 1e-4f};
        std::vector<Float4> cpu_pos(n), cpu_color(n), host_pos(n), host_color(n);
        cpu.export_render({cpu_pos.data(), cpu_color.data(), n, false}, style);
        gpu->export_render({host_pos.data(), host_color.data(), n, false}, style);
        Float4* pinned = gpu->host_staging(n);  // page-locked: the fast host path
        gpu->export_render({pinned, pinned + n, n, false}, style);
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(pinned[i].x, host_pos[i].x);
            EXPECT_EQ(pinned[n + i].z, host_color[i].z);
        }
        cuda::DeviceBuffer<Float4> device;
        device.resize(2 * n);
        gpu->export_render({device.data(), device.data() + n, n, true}, style);
        // Without a reader stream the export is ordered on the simulator's stream only (a
        // non-blocking one): wait for it before the copy, which runs on the default stream.
        PLAB_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<Float4> dev(2 * n);
        device.download(dev, nullptr);
        PLAB_CUDA_CHECK(cudaDeviceSynchronize());
        for (std::size_t i = 0; i < n; ++i) {
            // Interop and host copy: the same kernel output, bit for bit.
            EXPECT_EQ(dev[i].x, host_pos[i].x);
            EXPECT_EQ(dev[n + i].y, host_color[i].y);
            EXPECT_EQ(host_pos[i].x, cpu_pos[i].x);
            EXPECT_EQ(host_pos[i].w, cpu_pos[i].w);
            EXPECT_NEAR(host_color[i].x, cpu_color[i].x, 1e-6f);
            EXPECT_NEAR(host_color[i].z, cpu_color[i].z, 1e-6f);
        }
    }
}

// Each particle's exported colour, by id. The export is in memory order, which after a step
// is the cell order of the grid or of the lists' last build (other cells; the order inside a
// cell depends on atomics), so each exported position is matched with the id whose
// downloaded position it is: the same floats, from the same state.
std::vector<Float4> colors_by_id(Simulator& s, const std::vector<Float4>& pos,
                                 const std::vector<Float4>& color) {
    std::map<std::array<float, 3>, std::size_t> at;
    for (std::size_t i = 0; i < pos.size(); ++i) at[{pos[i].x, pos[i].y, pos[i].z}] = i;
    const Snapshot state = s.download();
    std::vector<Float4> out(state.pos.size(), Float4{-1.f, -1.f, -1.f, -1.f});
    for (std::size_t id = 0; id < state.pos.size(); ++id) {
        const auto it = at.find({state.pos[id].x, state.pos[id].y, state.pos[id].z});
        if (it != at.end()) out[id] = color[it->second];
    }
    return out;
}

// The spin colour (angular speed) reads the rotations by id on both backends: restored into
// both from one frictional state, the exports agree, and a spinning particle stands out. Each
// backend runs its default: the CPU scans the grid, CUDA reads neighbour lists (auto, with
// the frictional law).
TEST_F(CudaVsCpu, SpinExportMatchesTheCpu) {
    auto gpu = cuda();
    const Params p = preset_params(Preset::Sand);
    const std::size_t n = 5000;
    InitialState init = build_initial_state(preset_scene(Preset::Sand, n, p), p, n);
    init.friction.omega.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        init.friction.omega[i] = {0.f, 0.f, static_cast<float>(i % 7) * 20.f, 0.f};  // rad/s
    CpuSimulator cpu;
    cpu.reset(init, p);
    gpu->reset(init, p);
    RenderStyle style;
    style.color = ColorMode::Spin;
    style.spin_scale = 100.f;
    style.spins = true;
    std::vector<Float4> cpu_pos(n), cpu_color(n), gpu_pos(n), gpu_color(n);
    cpu.export_render({cpu_pos.data(), cpu_color.data(), n, false}, style);
    gpu->export_render({gpu_pos.data(), gpu_color.data(), n, false}, style);
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_NEAR(gpu_color[i].x, cpu_color[i].x, 1e-6f) << i;
        EXPECT_NEAR(gpu_color[i].y, cpu_color[i].y, 1e-6f) << i;
        EXPECT_NEAR(gpu_color[i].z, cpu_color[i].z, 1e-6f) << i;
    }
    // In id order (no step yet): still particles at the ramp's bottom, spinning ones above.
    const Float4 still = ramp(0.f), spinning = ramp(0.6f);
    EXPECT_EQ(gpu_color[0].z, still.z);
    EXPECT_NEAR(gpu_color[3].x, spinning.x, 1e-6f);
    EXPECT_NEAR(gpu_color[3].y, spinning.y, 1e-6f);
    // After steps the rotations are the law's own, on the device as on the CPU (close).
    for (int i = 0; i < 5; ++i) {
        cpu.step(p);
        gpu->step(p);
    }
    cpu.export_render({cpu_pos.data(), cpu_color.data(), n, false}, style);
    gpu->export_render({gpu_pos.data(), gpu_color.data(), n, false}, style);
    EXPECT_TRUE(gpu->effective_options().effective.neighbour_list);
    const std::vector<Float4> cpu_by_id = colors_by_id(cpu, cpu_pos, cpu_color),
                              gpu_by_id = colors_by_id(*gpu, gpu_pos, gpu_color);
    int differ = 0;
    for (std::size_t id = 0; id < n; ++id)
        differ += std::fabs(gpu_by_id[id].x - cpu_by_id[id].x) > 1e-3f;
    EXPECT_LT(differ, static_cast<int>(n / 100)) << "spin colours after 5 steps";
    // A run without rotation: grey on the GPU too.
    const Params classic = preset_params(Preset::Granular);
    gpu->reset(build_initial_state(preset_scene(Preset::Granular, n, classic), classic, n),
               classic);
    gpu->step(classic);
    style.spins = has_rotation(classic);
    gpu->export_render({gpu_pos.data(), gpu_color.data(), n, false}, style);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(gpu_color[i].x, no_spin_color().x) << i;
}
#endif

}  // namespace
}  // namespace plab::sim

namespace plab::sim {
namespace {

// The double-precision state on CUDA: the exact free-fall sequence, the float state's
// physics, and the graph replaying it.
TEST_F(CudaVsCpu, DoubleStateFollowsTheExactFreeFallSequence) {
    Params p = preset_params(Preset::Granular);
    p.dt = 1e-5f;
    p.substeps = 1000;
    InitialState init;
    init.domain = {{0.45f, 0.6f, 0.45f}, {0.55f, 1.f, 0.55f}};
    init.grid = make_grid(init.domain, 2.f * p.radius);
    init.pos = {{0.5f, 0.9f, 0.5f, 0.f}};
    init.vel = {{0.f, 0.f, 0.f, 0.f}};
    double error[2] = {0, 0};
    for (bool hi : {false, true}) {
        SimulatorOptions o;
        o.double_state = hi;
        o.graph = true;
        auto gpu = cuda(o);
        gpu->reset(init, p);
        for (int call = 0; call < 20; ++call) gpu->step(p);
        EXPECT_EQ(gpu->option_notes(), "");
        const double n = 20000, g = -double(p.gravity_y), dt = double(p.dt);
        const double exact = double(init.pos[0].y) - g * dt * dt * n * (n + 1) / 2;
        error[hi] = std::fabs(double(gpu->download().pos[0].y) - exact);
    }
    std::printf("free fall on CUDA: float state off by %.3g m, double by %.3g m\n", error[0],
                error[1]);
    EXPECT_LT(error[1], 1e-7);
    EXPECT_LT(error[1], error[0]);
}

TEST_F(CudaVsCpu, DoubleStateKeepsThePhysicsAndMatchesTheCpu) {
    Params p = preset_params(Preset::Classic);
    p.substeps = 1;
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    SimulatorOptions o;
    o.double_state = true;
    CpuSimulator cpu;
    cpu.set_options(o);
    auto gpu = cuda(o);
    auto gpu_float = cuda();
    o.graph = true;
    auto gpu_graph = cuda(o);
    for (Simulator* s :
         {static_cast<Simulator*>(&cpu), gpu.get(), gpu_float.get(), gpu_graph.get()})
        s->reset(init, p);
    for (int s = 0; s < 30; ++s)
        for (Simulator* sim :
             {static_cast<Simulator*>(&cpu), gpu.get(), gpu_float.get(), gpu_graph.get()})
            sim->step(p);
    const Divergence vs_cpu = divergence(cpu, *gpu, p);
    const Divergence vs_float = divergence(*gpu_float, *gpu, p);
    const Divergence vs_graph = divergence(*gpu_graph, *gpu, p);
    record("double_cuda_vs_double_cpu_30", vs_cpu);
    record("double_vs_float_cuda_30", vs_float);
    EXPECT_LT(vs_cpu.max, 1e-2 * p.radius);
    EXPECT_LT(vs_cpu.median, 1e-4 * p.radius);
    EXPECT_LT(vs_float.max, 1e-2 * p.radius);
    EXPECT_LT(vs_float.median, 1e-4 * p.radius);
    EXPECT_EQ(vs_graph.max, 0.0);
    EXPECT_EQ(gpu->option_notes(), "");
}

}  // namespace
}  // namespace plab::sim
