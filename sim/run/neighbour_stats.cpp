#include "sim/run/neighbour_stats.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/error.h"
#include "sim/physics/dem_step.h"

namespace plab::sim {

NeighbourStats neighbour_stats(const Snapshot& state, const GridSnapshot& grid,
                               const GridSpec& spec, float radius) {
    const std::size_t n = grid.sorted_id.size();
    PLAB_REQUIRE(state.pos.size() == n && grid.cell_start.size() == spec.num_cells() + 1,
                 "neighbour statistics need a grid built on the same state");
    NeighbourStats out;
    if (n == 0) return out;
    std::vector<Float4> sorted(n);
    for (std::size_t k = 0; k < n; ++k) sorted[k] = state.pos[grid.sorted_id[k]];
    StepBuffers b;
    b.sorted_pos = sorted.data();
    b.cell_start = const_cast<uint32_t*>(grid.cell_start.data());
    b.count = static_cast<uint32_t>(n);
    const float reach2 = 4.f * radius * radius;
    double candidates = 0, contacts = 0;
    uint32_t worst = 0;
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for reduction(+ : candidates, contacts) reduction(max : worst)
    for (std::int64_t k = 0; k < count; ++k) {
        const Vec3 p = xyz(sorted[k]);
        uint32_t seen = 0, touching = 0;
        for_each_candidate_in_reach(p, b, spec, [&](uint32_t j) {
            if (j == static_cast<uint32_t>(k)) return;
            ++seen;
            touching += length_squared(xyz(sorted[j]) - p) < reach2;
        });
        candidates += seen;
        contacts += touching;
        worst = std::max(worst, seen);
    }
    out.mean_candidates = candidates / static_cast<double>(n);
    out.mean_contacts = contacts / static_cast<double>(n);
    out.max_candidates = worst;
    for (std::size_t c = 0; c + 1 < grid.cell_start.size(); ++c)
        out.max_per_cell =
            std::max<double>(out.max_per_cell, grid.cell_start[c + 1] - grid.cell_start[c]);
    return out;
}

}  // namespace plab::sim
