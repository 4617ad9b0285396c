// The CUDA backend against the CPU reference on SPH scenes. Needs a CUDA device; where there is
// none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpu/cuda_vs_cpu_common.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "sim/test_helpers.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

// SPH: a dam break is not chaotic over its first few hundred steps (no contacts switching on
// and off), so the backends track each other particle by particle.
TEST_F(CudaVsCpu, SphDamBreakTracksTheCpuFor300Steps) {
    CpuSimulator cpu;
    auto gpu = cuda();
    const Divergence d = run_pair(cpu, *gpu, Preset::Water, 20000, 300);
    const Params p = preset_params(Preset::Water);
    record("sph_cuda_vs_cpu_300", d);
    EXPECT_LT(d.median, 1e-3 * p.radius);
    EXPECT_LT(d.max, 0.05 * p.radius);
    EXPECT_LT(d.energy, 1e-3);
    const SimStats a = cpu.stats(p), b = gpu->stats(p);
    EXPECT_NEAR(a.density_mean, b.density_mean, 1e-4 * a.density_mean);
    EXPECT_NEAR(a.density_max, b.density_max, 1e-3 * a.density_max);
    EXPECT_NEAR(a.density_min, b.density_min, 1e-3 * a.density_max);
}

// Same step for every block size, with and without the graph, and for particles with more
// neighbours than the CUDA neighbour list holds (a block squeezed to 0.7 of the spacing has
// ~170 in reach; those particles scan their candidates again).
void expect_sph_matches_cpu(const InitialState& init, Params p, int steps,
                            std::unique_ptr<Simulator> (*make)(SimulatorOptions)) {
    p.substeps = 1;
    CpuSimulator cpu;
    cpu.reset(init, p);
    for (int s = 0; s < steps; ++s) cpu.step(p);
    const Snapshot want = cpu.download();
    // The grid's passes and the neighbour lists (auto: on for SPH on CUDA).
    for (int lists : {kOff, kAuto})
        for (int block : {64, 256, 1024})
            for (bool graph : {false, true}) {
                SimulatorOptions o;
                o.neighbour_list = lists;
                o.block_size = block;
                o.graph = graph;
                auto gpu = make(o);
                gpu->reset(init, p);
                for (int s = 0; s < steps; ++s) gpu->step(p);
                const Snapshot got = gpu->download();
                // The stiff equation of state turns float summation order into small position
                // differences (2e-5 m after 50 steps, 0.004 radius); a wrong neighbour set would
                // be radii and per cents of density.
                const double worst = test::max_position_distance(got, want);
                double worst_density = 0;
                for (std::size_t i = 0; i < want.pos.size(); ++i)
                    worst_density = std::max<double>(
                        worst_density, std::fabs(got.vel[i].w - want.vel[i].w) / p.rest_density);
                EXPECT_EQ(gpu->effective_options().effective.neighbour_list,
                          lists == kOff ? kOff : kOn);
                EXPECT_LT(worst, 0.02 * p.radius)
                    << "block " << block << ", graph " << graph << ", lists " << lists;
                EXPECT_LT(worst_density, 1e-3)
                    << "block " << block << ", graph " << graph << ", lists " << lists;
            }
}

std::unique_ptr<Simulator> make_cuda(SimulatorOptions o) {
    return make_simulator(Backend::Cuda, nullptr, o);
}

TEST_F(CudaVsCpu, SphEveryBlockSizeAndTheGraphGiveTheSameStep) {
    const Params p = preset_params(Preset::Water);
    const std::size_t n = 30000;
    expect_sph_matches_cpu(build_initial_state(preset_scene(Preset::Water, n, p), p, n), p, 50,
                           make_cuda);
}

TEST_F(CudaVsCpu, SphParticlesWithMoreNeighboursThanTheListHoldMatchToo) {
    Params p = preset_params(Preset::Water);
    p.gravity_y = 0.f;
    p.dt *= 0.2f;  // squeezed liquid pushes hard
    Scene s;
    s.name = "squeezed";
    s.domain = {{0, 0, 0}, {0.3f, 0.3f, 0.3f}};
    ParticleBlock b;
    b.min = {0.1f, 0.1f, 0.1f};
    b.max = {0.15f, 0.15f, 0.15f};
    b.spacing = 1.4f * p.radius;
    s.blocks.push_back(b);
    expect_sph_matches_cpu(build_initial_state(s, p, scene_capacity(s)), p, 5, make_cuda);
}

TEST_F(CudaVsCpu, SphResetComputesTheSameStartingDensity) {
    const Params p = preset_params(Preset::Water);
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Water, n, p), p, n);
    CpuSimulator cpu;
    auto gpu = cuda();
    cpu.reset(init, p);
    gpu->reset(init, p);
    const Snapshot a = cpu.download(), b = gpu->download();
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_GT(b.vel[i].w, 0.f) << "particle " << i;
        worst = std::max<double>(worst, std::fabs(a.vel[i].w - b.vel[i].w));
    }
    EXPECT_LT(worst, 1e-3 * p.rest_density);
}

TEST_F(CudaVsCpu, SphLatticeInAClosedBoxStaysAtRest) {
    Params p = preset_params(Preset::Water);
    p.gravity_y = 0.f;
    Scene s;
    s.name = "closed box";
    s.domain = {{0, 0, 0}, {0.3f, 0.2f, 0.1f}};
    ParticleBlock b;
    b.min = s.domain.min;
    b.max = s.domain.max;
    b.spacing = 2.f * p.radius;
    s.blocks.push_back(b);
    auto gpu = cuda();
    gpu->reset(build_initial_state(s, p, scene_capacity(s)), p);
    p.substeps = 20;
    gpu->step(p);
    const SimStats st = gpu->stats(p);
    EXPECT_NEAR(st.density_min, p.rest_density, 0.05);
    EXPECT_NEAR(st.density_max, p.rest_density, 0.05);
    // Float rounding only (a wall's density off by 0.1% would move particles at ~0.5 m/s).
    EXPECT_LT(st.max_speed, 1e-3f);
}

}  // namespace
}  // namespace plab::sim
