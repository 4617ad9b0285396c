// The persistent cooperative kernel against the per-stage launches, and unsorted against sorted
// particle memory, on the CUDA backend. Needs a CUDA device; without one every test is
// reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"
#if PLAB_HAS_CUDA
#include <cuda_runtime.h>

#include "sim/cuda/cuda_simulator.h"
#endif

namespace plab::sim {
namespace {

class CudaStepVariants : public test::CudaTest {};

std::unique_ptr<Simulator> cuda(const SimulatorOptions& o) {
    return make_simulator(Backend::Cuda, nullptr, o);
}

bool persistent_in_use(const Simulator& s) {
    return s.effective_options().effective.persistent_kernel;
}

// Largest per-particle position difference (m) after `steps` classic steps of `n` particles
// from the same start. Atomics order the particles inside a cell differently on every run, so
// even two plain runs differ by float rounding that the pile then amplifies a little.
double run_and_compare(Simulator& a, Simulator& b, std::size_t n, int steps) {
    Params p = preset_params(Preset::Classic);
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    a.reset(init, p);
    b.reset(init, p);
    for (int i = 0; i < steps; ++i) {
        a.step(p);
        b.step(p);
    }
    const Snapshot x = a.download(), y = b.download();
    const double worst = test::max_position_distance(x, y);  // infinite if one is not finite
    EXPECT_GT(test::max_distance(x.pos, init.pos), 1e-4) << "the particles should have moved";
    std::printf("max difference %.3g m after %d steps\n", worst, steps);
    return worst;
}

const float kRadius = preset_params(Preset::Classic).radius;

// The gather form, which the persistent kernel also computes (the default scatters on CUDA).
SimulatorOptions gather() {
    SimulatorOptions o;
    o.scatter_forces = kOff;
    return o;
}

TEST_F(CudaStepVariants, PersistentKernelMatchesPlainLaunches) {
    SimulatorOptions persistent;
    persistent.persistent_kernel = true;
    auto plain = cuda(gather()), one = cuda(persistent);
    EXPECT_LT(run_and_compare(*plain, *one, 30000, 30), 1e-2 * kRadius);
    EXPECT_TRUE(persistent_in_use(*one));
    EXPECT_EQ(one->option_notes(), "");
    // One kernel: only the step's total is timed, like a graph replay.
    const auto t = one->take_timings();
    ASSERT_EQ(t.size(), 30u);
    EXPECT_FALSE(t.back().has_stages);
    EXPECT_GT(t.back().total_ms, 0.0);
}

TEST_F(CudaStepVariants, PersistentKernelMatchesForEveryForceShape) {
    // Block 32 gives the in-kernel scan 128 tiles of the 64³-cell grid, more than one block
    // scans in a single chunk; 1 and 4 threads per particle, no contact list, separate drift
    // and unsorted memory are the other shapes of its force stage.
    for (int variant = 0; variant < 5; ++variant) {
        SimulatorOptions o = gather();
        if (variant == 0) o.block_size = 32;
        if (variant == 1) o.threads_per_particle = 1;
        if (variant == 2) {
            o.threads_per_particle = 4;
            o.contact_list = false;
        }
        if (variant == 3) o.fuse_integrate = false;
        if (variant == 4) o.sorted_memory = false;
        SimulatorOptions p = o;
        p.persistent_kernel = true;
        auto plain = cuda(o), one = cuda(p);
        EXPECT_LT(run_and_compare(*plain, *one, 30000, 10), 1e-2 * kRadius)
            << "variant " << variant;
        EXPECT_TRUE(persistent_in_use(*one)) << "variant " << variant;
    }
}

TEST_F(CudaStepVariants, PersistentKernelSmallSceneForSanitizers) {
    // Few particles and steps, so compute-sanitizer (memcheck, racecheck, synccheck) finishes.
    SimulatorOptions persistent;
    persistent.persistent_kernel = true;
    SimulatorOptions unsorted = persistent;
    unsorted.sorted_memory = false;
    auto plain = cuda(gather()), one = cuda(persistent), two = cuda(unsorted);
    EXPECT_LT(run_and_compare(*plain, *one, 4000, 4), 1e-2 * kRadius);
    EXPECT_LT(run_and_compare(*plain, *two, 4000, 4), 1e-2 * kRadius);
}

TEST_F(CudaStepVariants, PersistentKernelRefusesScatterForcesAndSaysWhy) {
    SimulatorOptions o;
    o.persistent_kernel = true;
    o.scatter_forces = true;
    auto plain = cuda({}), refused = cuda(o);
    EXPECT_LT(run_and_compare(*plain, *refused, 20000, 5), 1e-2 * kRadius);
    EXPECT_FALSE(persistent_in_use(*refused));
    EXPECT_NE(refused->option_notes().find("scatter"), std::string::npos)
        << refused->option_notes();
    EXPECT_TRUE(refused->take_timings().back().has_stages) << "the per-stage path ran";
}

TEST_F(CudaStepVariants, PersistentKernelTakesPrecedenceOverTheGraphAndSaysSo) {
    SimulatorOptions o;
    o.persistent_kernel = true;
    o.graph = true;
    auto plain = cuda({}), both = cuda(o);
    EXPECT_LT(run_and_compare(*plain, *both, 20000, 5), 1e-2 * kRadius);
    EXPECT_TRUE(persistent_in_use(*both));
    EXPECT_NE(both->option_notes().find("graph"), std::string::npos) << both->option_notes();
}

TEST_F(CudaStepVariants, UnsortedMemoryMatchesSorted) {
    // The same pairs in the same cell order, read through the index instead of from the
    // reordered copy: every force shape gives the sorted result to rounding.
    for (int variant = 0; variant < 5; ++variant) {
        SimulatorOptions o = gather();
        if (variant == 1) o.contact_list = false;
        if (variant == 2) o.threads_per_particle = 1;
        if (variant == 3) o.scatter_forces = kOn;
        if (variant == 4) o.graph = true;
        SimulatorOptions u = o;
        u.sorted_memory = false;
        auto sorted = cuda(o), unsorted = cuda(u);
        EXPECT_LT(run_and_compare(*sorted, *unsorted, 30000, 20), 1e-2 * kRadius)
            << "variant " << variant;
        EXPECT_EQ(unsorted->option_notes(), "");
        // Unsorted cannot fuse the drift into the force pass (it overwrites what others read).
        if (variant != 4) {
            EXPECT_FALSE(unsorted->take_timings().back().integrate_fused);
        }
    }
}

TEST_F(CudaStepVariants, SwitchingLayoutAndLaunchMidRunKeepsThePhysics) {
    // The state stays valid whichever way the last step left it in memory.
    auto plain = cuda({}), switching = cuda({});
    Params p = preset_params(Preset::Classic);
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    plain->reset(init, p);
    switching->reset(init, p);
    for (int i = 0; i < 24; ++i) {
        SimulatorOptions o;
        o.sorted_memory = (i / 3) % 2 == 0;
        o.persistent_kernel = (i / 6) % 2 == 1;
        switching->set_options(o);
        plain->step(p);
        switching->step(p);
    }
    EXPECT_LT(test::max_position_distance(plain->download(), switching->download()),
              1e-2 * kRadius);
}

TEST_F(CudaStepVariants, TheScatterFormsHashCarriesOverOnlyWhileTheStateIsItsOwn) {
    // The scatter form's last kernel hashes the next step's positions, and its next step starts
    // at the scan. Whatever else moves or reorders the state in between (a grid snapshot, the
    // persistent kernel, the gather, a reset) must make the next scatter step hash again: a
    // stale hash would put particles in the wrong cells, into the wrong places of the sorted
    // copy, and the run would leave the straight one by far more than rounding.
    auto straight = cuda({}), mixed = cuda({});
    EXPECT_EQ(straight->effective_options().effective.scatter_forces, kOn);
    Params p = preset_params(Preset::Classic);
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    straight->reset(init, p);
    mixed->reset(init, p);
    for (int i = 0; i < 32; ++i) {
        SimulatorOptions o;  // auto: the scatter
        if (i % 8 == 1 || i % 8 == 2 || i % 8 == 6) o.graph = true;
        if (i % 8 == 3) o.persistent_kernel = true;
        if (i % 8 == 4) o.scatter_forces = kOff;
        if (i % 8 == 5) {
            o.sorted_memory = false;
            o.graph = true;
        }
        mixed->set_options(o);
        if (i % 12 == 7) {  // after a scatter step: the snapshot reorders the state
            const GridSnapshot g = mixed->build_grid();
            ASSERT_EQ(g.cell_start.back(), n);
            std::vector<bool> seen(n, false);
            for (uint32_t id : g.sorted_id) {
                ASSERT_LT(id, n);
                EXPECT_FALSE(seen[id]) << "particle " << id << " twice in the grid";
                seen[id] = true;
            }
        }
        straight->step(p);
        mixed->step(p);
    }
    EXPECT_LT(test::max_position_distance(straight->download(), mixed->download()), 1e-2 * kRadius);
    // A reset between two graph replays of the scatter form starts from the new state's hash.
    SimulatorOptions replay;
    replay.graph = true;
    mixed->set_options(replay);
    for (auto* s : {straight.get(), mixed.get()}) s->reset(init, p);
    for (int i = 0; i < 12; ++i) {
        straight->step(p);
        mixed->step(p);
    }
    EXPECT_LT(test::max_position_distance(straight->download(), mixed->download()), 1e-2 * kRadius);
    EXPECT_EQ(mixed->stats(p).non_finite, 0u);
}

TEST_F(CudaStepVariants, PositionsWrittenThroughTheDeviceStateAreHashedAfresh) {
#if !PLAB_HAS_CUDA
    GTEST_SKIP() << "built without CUDA";
#else
    // The Python module's device views may write positions between steps. A particle moved
    // there onto another one must feel it at the next step: a hash carried over from the last
    // step would keep it in its old cell, far from the one it now overlaps.
    const Params p = preset_params(Preset::Classic);
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    auto speed = [](const Float4& v) { return std::hypot(double(v.x), double(v.y), double(v.z)); };
    for (const bool graph : {false, true}) {
        SimulatorOptions o;
        o.graph = graph;
        auto sim = cuda(o);
        sim->reset(init, p);
        for (int i = 0; i < 3; ++i) sim->step(p);
        ASSERT_EQ(sim->effective_options().effective.scatter_forces, kOn);
        const DeviceArrays st = sim->device_arrays();
        ASSERT_EQ(st.count, n);
        std::vector<Float4> rows(n);
        std::vector<uint32_t> ids(n);
        ASSERT_EQ(cudaMemcpy(rows.data(), st.pos, n * sizeof(Float4), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        ASSERT_EQ(cudaMemcpy(ids.data(), st.id, n * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        const Snapshot before = sim->download();
        // The last row (last in cell order, so a stale hash would leave it after every
        // particle it now touches, where neither side's scan of later candidates finds the
        // pair) onto row n / 2, a fifth of a radius beside it.
        Float4 moved = rows[n / 2];
        moved.x += 0.2f * p.radius;
        ASSERT_EQ(cudaMemcpy(const_cast<Float4*>(st.pos) + (n - 1), &moved, sizeof moved,
                             cudaMemcpyHostToDevice),
                  cudaSuccess);
        auto reference = cuda(o);  // the same state, hashed at its first step
        reference->reset(sim->capture_state(), p);
        sim->step(p);
        reference->step(p);
        const uint32_t id = ids[n - 1];
        const Snapshot a = sim->download(), b = reference->download();
        const double kick = speed({b.vel[id].x - before.vel[id].x, b.vel[id].y - before.vel[id].y,
                                   b.vel[id].z - before.vel[id].z, 0.f});
        EXPECT_GT(kick, 10 * std::fabs(p.gravity_y * p.dt)) << "the overlap should push hard";
        EXPECT_NEAR(speed(a.vel[id]), speed(b.vel[id]), 1e-3 * speed(b.vel[id]))
            << (graph ? "graph" : "plain launches");
    }
#endif
}

}  // namespace
}  // namespace plab::sim
