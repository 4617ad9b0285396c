#pragma once
// What the ranks' tests share (test_rank_stepper, test_mpi_ranks, test_cuda_ranks): the CPU
// simulator a bit-for-bit comparison needs, and the comparisons of states.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/cpu/cpu_simulator.h"
#include "sim/engine/initial_state.h"
#include "sim/model/params.h"

namespace plab::sim::testing {

// A CPU simulator whose force sums run in the order a rank's do: the grid every step (no lists),
// memory kept in id order (with sorted memory the whole run keeps the last step's cell order,
// while a rank restarts from its particles in id order every step), no scatter forces (their
// atomics order the sums).
inline std::unique_ptr<Simulator> gridded_cpu() {
    auto s = std::make_unique<CpuSimulator>();
    SimulatorOptions o;
    o.neighbour_list = kOff;
    o.sorted_memory = false;
    o.deterministic = true;
    s->set_options(o);
    return s;
}

inline bool same_bits(const std::vector<Float4>& a, const std::vector<Float4>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Float4)) == 0;
}

// The largest distance between two lists of vectors, and the largest length in one (m, m/s).
inline double largest_difference(const std::vector<Float4>& a, const std::vector<Float4>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max<double>(d, std::sqrt(length_squared(xyz(a[i]) - xyz(b[i]))));
    return d;
}
inline double largest(const std::vector<Float4>& v) {
    double d = 0;
    for (const Float4& x : v) d = std::max<double>(d, std::sqrt(length_squared(xyz(x))));
    return d;
}

// A reference run of `whole`: `before` steps from `init`, the state then (in id order, with its
// frictional record) as the ranks' start, and the state `after` steps later as expected.
struct Reference {
    InitialState start;
    Snapshot expected;
};
inline Reference reference_run(Simulator& whole, const InitialState& init, const Params& p,
                               int before, int after) {
    whole.reset(init, p);
    for (int s = 0; s < before; ++s) whole.step(p);
    Reference r;
    r.start = whole.capture_state();
    const Snapshot mid = whole.download();
    r.start.pos = mid.pos;  // in id order, as the record
    r.start.vel = mid.vel;
    r.start.order.clear();
    r.start.pos_hi.clear();
    r.start.vel_hi.clear();
    for (int s = 0; s < after; ++s) whole.step(p);
    r.expected = whole.download();
    return r;
}

}  // namespace plab::sim::testing
