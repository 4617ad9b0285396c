// Deterministic mode on the CUDA backend (SimulatorOptions::deterministic): two runs from one
// state end bit-identical after any number of steps, in every launch form and memory layout it
// runs with, on both models, and a run continued from a checkpoint is bit-identical to the run
// that did not stop. Without the mode the counting sort's atomics order each cell's particles
// differently from run to run (printed, not asserted: two runs can happen to agree). Needs a
// CUDA device; without one every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

class CudaDeterministic : public test::CudaTest {};

struct Case {
    const char* name;
    Preset preset;
    std::size_t particles;
    int steps;
};

// Enough particles that many cells hold several (the atomics then have an order to vary).
constexpr Case kCases[] = {{"classic", Preset::Classic, 40000, 400},
                           {"granular", Preset::Granular, 30000, 300},
                           {"water", Preset::Water, 30000, 200}};

Params params_of(const Case& c) {
    Params p = preset_params(c.preset);
    p.substeps = 1;
    return p;
}

// Whether the CUDA backend runs the case's contact law (printed when it does not).
bool runs(const Case& c) {
    const std::string why = make_simulator(Backend::Cuda)->unsupported(params_of(c));
    if (!why.empty()) std::printf("%s not run: %s\n", c.name, why.c_str());
    return why.empty();
}

std::unique_ptr<Simulator> started(const Case& c, const SimulatorOptions& o) {
    const Params p = params_of(c);
    auto s = make_simulator(Backend::Cuda, nullptr, o);
    s->reset(build_initial_state(preset_scene(c.preset, c.particles, p), p, c.particles), p);
    return s;
}

Snapshot run(const Case& c, const SimulatorOptions& o, int steps) {
    auto s = started(c, o);
    const Params p = params_of(c);
    for (int i = 0; i < steps; ++i) s->step(p);
    EXPECT_EQ(s->stats(p).non_finite, 0u) << c.name;
    return s->download();
}

bool same_bits(const Snapshot& a, const Snapshot& b) {
    return a.pos.size() == b.pos.size() &&
           std::memcmp(a.pos.data(), b.pos.data(), a.pos.size() * sizeof(Float4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.vel.size() * sizeof(Float4)) == 0;
}

double max_distance(const Snapshot& x, const Snapshot& y) {
    double worst = 0;
    for (std::size_t i = 0; i < x.pos.size(); ++i)
        worst = std::max(
            worst, std::hypot(double(x.pos[i].x) - y.pos[i].x, double(x.pos[i].y) - y.pos[i].y,
                              double(x.pos[i].z) - y.pos[i].z));
    return worst;
}

// The launch forms and layouts deterministic mode runs with.
struct Form {
    const char* name;
    SimulatorOptions options;
};

std::vector<Form> forms() {
    SimulatorOptions plain;
    plain.deterministic = true;
    SimulatorOptions graph = plain;
    graph.graph = true;
    SimulatorOptions lists = graph;
    lists.neighbour_list = true;
    SimulatorOptions unsorted = plain;
    unsorted.sorted_memory = false;
    SimulatorOptions grouped = graph;  // several threads share a particle's neighbour loop
    grouped.threads_per_particle = 4;
    return {{"plain", plain},
            {"graph", graph},
            {"graph + lists", lists},
            {"unsorted memory", unsorted},
            {"4 threads per particle", grouped}};
}

TEST_F(CudaDeterministic, TwoRunsFromOneStateAreBitIdentical) {
    for (const Case& c : kCases) {
        if (!runs(c)) continue;
        for (const Form& f : forms()) {
            const Snapshot a = run(c, f.options, c.steps), b = run(c, f.options, c.steps);
            EXPECT_TRUE(same_bits(a, b)) << c.name << ", " << f.name << ": the runs differ by "
                                         << max_distance(a, b) << " m";
        }
        SimulatorOptions off;
        off.graph = true;
        const Snapshot a = run(c, off, c.steps), b = run(c, off, c.steps);
        std::printf("%s without deterministic mode: two runs %s (largest distance %.3g m)\n",
                    c.name, same_bits(a, b) ? "agree" : "differ", max_distance(a, b));
    }
}

TEST_F(CudaDeterministic, ItStaysCloseToTheAtomicOrderRun) {
    // Only the order of the sums changes: the physics does not.
    for (const Case& c : kCases) {
        if (!runs(c)) continue;
        SimulatorOptions on;
        on.deterministic = true;
        const int steps = 40;
        const double d = max_distance(run(c, on, steps), run(c, {}, steps));
        EXPECT_LT(d, 1e-2 * params_of(c).radius) << c.name;
    }
}

TEST_F(CudaDeterministic, ContinuingFromACheckpointIsBitIdentical) {
    for (const Case& c : kCases) {
        if (!runs(c)) continue;
        for (const bool graph : {false, true}) {
            SimulatorOptions o;
            o.deterministic = true;
            o.graph = graph;
            const Params p = params_of(c);
            const int first = c.steps / 2, then = c.steps / 2;
            auto straight = started(c, o), stopped = started(c, o);
            for (int i = 0; i < first + then; ++i) straight->step(p);
            for (int i = 0; i < first; ++i) stopped->step(p);
            Checkpoint saved;
            saved.run.options = o;
            saved.params = p;
            saved.state = stopped->capture_state();
            const std::string bytes = encode_checkpoint(saved);  // through the file format
            const Checkpoint read =
                read_checkpoint(std::as_bytes(std::span(bytes.data(), bytes.size())), "d.plab");
            auto resumed = make_simulator(Backend::Cuda, nullptr, o);
            restore_checkpoint(*resumed, read);
            for (int i = 0; i < then; ++i) resumed->step(p);
            const Snapshot s = straight->download(), r = resumed->download();
            EXPECT_TRUE(same_bits(s, r))
                << c.name << (graph ? " (graph)" : "") << ": the continued run differs by "
                << max_distance(s, r) << " m";
        }
    }
}

}  // namespace
}  // namespace plab::sim
