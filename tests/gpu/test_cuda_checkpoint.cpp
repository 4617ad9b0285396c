// Checkpoints on the CUDA backend: a captured state goes back onto the device byte for byte,
// and continuing from a checkpoint follows the run that did not stop as closely as two plain
// runs follow each other (atomics order the particles inside a cell differently on every run;
// where a deterministic variant exists it is bit for bit). Needs a CUDA device; without one
// every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "sim/engine/simulator.h"
#include "sim/friction_scene.h"
#include "sim/io/checkpoint.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

namespace fs = std::filesystem;

class CudaCheckpoint : public test::CudaTest {};

std::unique_ptr<Simulator> cuda(const SimulatorOptions& o = {}) {
    return make_simulator(Backend::Cuda, nullptr, o);
}

Checkpoint checkpoint_of(Simulator& s, const Params& p, const SimulatorOptions& o) {
    Checkpoint c;
    c.run.options = o;
    c.params = p;
    c.state = s.capture_state();
    // Through the file format, as a real checkpoint goes.
    const std::string bytes = encode_checkpoint(c);
    return read_checkpoint(std::as_bytes(std::span(bytes.data(), bytes.size())), "gpu.plab");
}

TEST_F(CudaCheckpoint, ACapturedStateGoesBackByteForByte) {
    for (const Preset preset : {Preset::Classic, Preset::Water}) {
        for (const bool hi : {false, true}) {
            SimulatorOptions o;
            o.double_state = hi;
            Params p = preset_params(preset);
            p.substeps = 1;
            const std::size_t n = 20000;
            auto a = cuda(o);
            a->reset(build_initial_state(preset_scene(preset, n, p), p, n), p);
            for (int i = 0; i < 20; ++i) a->step(p);
            const Checkpoint c = checkpoint_of(*a, p, o);
            auto b = cuda(o);
            restore_checkpoint(*b, c);
            const InitialState x = c.state, y = b->capture_state();
            ASSERT_EQ(x.pos.size(), y.pos.size());
            EXPECT_EQ(std::memcmp(x.pos.data(), y.pos.data(), x.pos.size() * 16), 0);
            EXPECT_EQ(std::memcmp(x.vel.data(), y.vel.data(), x.vel.size() * 16), 0);
            EXPECT_EQ(x.order, y.order);
            EXPECT_EQ(x.pos_hi.size(), y.pos_hi.size());
            if (!x.pos_hi.empty()) {
                EXPECT_EQ(std::memcmp(x.pos_hi.data(), y.pos_hi.data(), x.pos_hi.size() * 32), 0);
            }
        }
    }
}

TEST_F(CudaCheckpoint, ContinuationFollowsTheRunThatDidNotStop) {
    const float radius = preset_params(Preset::Classic).radius;
    // The default step (the DEM scatter, the SPH lists) and the gather.
    SimulatorOptions gather;
    gather.scatter_forces = kOff;
    gather.neighbour_list = kOff;
    for (const SimulatorOptions& o : {SimulatorOptions{}, gather})
        for (const Preset preset : {Preset::Classic, Preset::Granular, Preset::Water}) {
            Params p = preset_params(preset);
            p.substeps = 1;
            const std::size_t n = 30000;
            const InitialState init = build_initial_state(preset_scene(preset, n, p), p, n);
            const int first = 30, then = 20;
            auto straight = cuda(o), twin = cuda(o), stopped = cuda(o);
            straight->reset(init, p);
            twin->reset(init, p);
            stopped->reset(init, p);
            for (int i = 0; i < first + then; ++i) {
                straight->step(p);
                twin->step(p);
            }
            for (int i = 0; i < first; ++i) stopped->step(p);
            const Checkpoint c = checkpoint_of(*stopped, p, o);
            auto resumed = cuda(o);
            restore_checkpoint(*resumed, c);
            for (int i = 0; i < then; ++i) resumed->step(p);
            const Snapshot s = straight->download();
            const double plain = test::max_position_distance(s, twin->download());
            const double continued = test::max_position_distance(s, resumed->download());
            const double scale = preset == Preset::Classic ? radius : p.radius;
            std::printf("%s: two plain runs differ by %.3g m, the continued run by %.3g m\n",
                        std::string(preset_name(preset)).c_str(), plain, continued);
            // The default DEM step scatters its forces with float atomics, whose order differs
            // between any two runs; in the classic block, packed from its first step, one
            // particle's contact may then go either way (two plain runs seen 0.13 radius apart
            // after 50 steps). A lost or misplaced state would be radii off: the falling block
            // moves by radii in the last 20 steps.
            const bool scatters = resumed->effective_options().effective.scatter_forces == kOn;
            EXPECT_LT(continued, (scatters ? 0.25 : 1e-2) * scale) << preset_name(preset);
            EXPECT_EQ(resumed->stats(p).non_finite, 0u);
        }
}

TEST_F(CudaCheckpoint, ACpuCheckpointContinuesOnTheGpu) {
    // A checkpoint is backend-neutral: the CPU's state continues on CUDA and stays close.
    Params p = preset_params(Preset::Classic);
    p.substeps = 1;
    const std::size_t n = 20000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    auto cpu = make_simulator(Backend::Cpu);
    cpu->reset(init, p);
    for (int i = 0; i < 20; ++i) cpu->step(p);
    const Checkpoint c = checkpoint_of(*cpu, p, {});
    auto gpu = cuda();
    restore_checkpoint(*gpu, c);
    for (int i = 0; i < 10; ++i) {
        cpu->step(p);
        gpu->step(p);
    }
    EXPECT_LT(test::max_position_distance(cpu->download(), gpu->download()), 1e-2 * p.radius);
}

// The frictional law's state (checkpoint format version 2): the sand-like preset's block closed
// up and set down on the floor, so that it touches from the first step and slumps.
using testing::arrays_of;
using testing::block_on_the_floor;
using testing::sand;

bool same_state(const InitialState& a, const InitialState& b) {
    return a.pos.size() == b.pos.size() &&
           std::memcmp(a.pos.data(), b.pos.data(), a.pos.size() * sizeof(Float4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.vel.size() * sizeof(Float4)) == 0 &&
           a.order == b.order && arrays_of(a.friction) == arrays_of(b.friction);
}

TEST_F(CudaCheckpoint, AFrictionalStateGoesBackByteForByte) {
    const Params p = sand();
    const std::size_t n = 20000;
    for (const bool graph : {false, true}) {
        SimulatorOptions o;
        o.graph = graph;
        auto a = cuda(o);
        a->reset(block_on_the_floor(p, n), p);
        for (int i = 0; i < 50; ++i) a->step(p);
        const Checkpoint c = checkpoint_of(*a, p, o);
        ASSERT_EQ(c.state.friction.omega.size(), n);
        bool spinning = false;
        for (const Float4& w : c.state.friction.omega) spinning |= w.x != 0 || w.z != 0;
        EXPECT_TRUE(spinning);
        auto b = cuda(o);
        restore_checkpoint(*b, c);
        EXPECT_TRUE(same_state(c.state, b->capture_state())) << (graph ? "graph" : "plain");
    }
}

TEST_F(CudaCheckpoint, AFrictionalRunContinuesBitForBitInDeterministicMode) {
    const Params p = sand();
    const std::size_t n = 20000;
    const InitialState init = block_on_the_floor(p, n);
    const int first = 150, then = 150;
    for (const bool graph : {false, true}) {
        SimulatorOptions o;
        o.deterministic = true;
        o.graph = graph;
        auto straight = cuda(o), stopped = cuda(o);
        straight->reset(init, p);
        stopped->reset(init, p);
        for (int i = 0; i < first + then; ++i) straight->step(p);
        for (int i = 0; i < first; ++i) stopped->step(p);
        const Checkpoint c = checkpoint_of(*stopped, p, o);
        auto resumed = cuda(o);
        restore_checkpoint(*resumed, c);
        for (int i = 0; i < then; ++i) resumed->step(p);
        const Snapshot s = straight->download(), r = resumed->download();
        EXPECT_TRUE(same_state(straight->capture_state(), resumed->capture_state()))
            << (graph ? "graph" : "plain") << ": the continued run differs by "
            << test::max_position_distance(s, r) << " m";
        // Without its frictional state the continuation goes another way: it was needed.
        Checkpoint forgetful = c;
        forgetful.state.friction = {};
        auto amnesic = cuda(o);
        restore_checkpoint(*amnesic, forgetful);
        for (int i = 0; i < then; ++i) amnesic->step(p);
        EXPECT_GT(test::max_position_distance(s, amnesic->download()), 0.0);
    }
}

TEST_F(CudaCheckpoint, ACpuFrictionalCheckpointContinuesOnTheGpu) {
    const Params p = sand();
    const std::size_t n = 5000;
    auto cpu = make_simulator(Backend::Cpu);
    cpu->reset(block_on_the_floor(p, n), p);
    for (int i = 0; i < 50; ++i) cpu->step(p);
    const Checkpoint c = checkpoint_of(*cpu, p, {});
    auto gpu = cuda();
    restore_checkpoint(*gpu, c);
    EXPECT_EQ(arrays_of(gpu->capture_state().friction), arrays_of(c.state.friction));
    for (int i = 0; i < 10; ++i) {
        cpu->step(p);
        gpu->step(p);
    }
    EXPECT_LT(test::max_position_distance(cpu->download(), gpu->download()), 1e-2 * p.radius);
}

}  // namespace
}  // namespace plab::sim
