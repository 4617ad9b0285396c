// Deterministic mode on the CPU backend: its grid is built in order by one thread, so the only
// order that could vary between runs is the scatter form's atomic adds, which deterministic mode
// turns off. Two runs from one state on several OpenMP threads end bit-identical.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <memory>

#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/run/make_simulator.h"

namespace plab::sim {
namespace {

Snapshot run(Preset preset, std::size_t n, int steps, const SimulatorOptions& o) {
    Params p = preset_params(preset);
    p.substeps = 1;
    auto s = make_simulator(Backend::Cpu, nullptr, o);
    s->reset(build_initial_state(preset_scene(preset, n, p), p, n), p);
    for (int i = 0; i < steps; ++i) s->step(p);
    return s->download();
}

bool same_bits(const Snapshot& a, const Snapshot& b) {
    return a.pos.size() == b.pos.size() &&
           std::memcmp(a.pos.data(), b.pos.data(), a.pos.size() * sizeof(Float4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.vel.size() * sizeof(Float4)) == 0;
}

TEST(DeterministicCpu, TwoRunsFromOneStateAreBitIdentical) {
    const int threads = omp_get_max_threads();
    omp_set_num_threads(4);  // several threads even on a small machine
    SimulatorOptions o;
    o.deterministic = true;
    o.scatter_forces = true;  // asked for, and turned off by deterministic mode
    for (const bool lists : {false, true}) {
        o.neighbour_list = lists;
        EXPECT_TRUE(
            same_bits(run(Preset::Classic, 6000, 150, o), run(Preset::Classic, 6000, 150, o)))
            << "classic, lists " << lists;
        EXPECT_TRUE(same_bits(run(Preset::Water, 3000, 60, o), run(Preset::Water, 3000, 60, o)))
            << "water, lists " << lists;
    }
    omp_set_num_threads(threads);
}

}  // namespace
}  // namespace plab::sim
