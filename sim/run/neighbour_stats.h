#pragma once
// How much work the neighbour search does on a given state: candidates visited (particles in
// the 27 cells around each particle) and actual contacts. These numbers explain force-stage
// timings: the force pass costs about one load per candidate.
#include <cstdint>

#include "sim/engine/simulator.h"
#include "sim/model/grid.h"

namespace plab::sim {

struct NeighbourStats {
    double mean_candidates = 0;  // per particle, itself excluded
    double mean_contacts = 0;    // per particle, pairs closer than one diameter
    uint32_t max_candidates = 0;
    double max_per_cell = 0;  // the fullest cell
};

// `state` in id order, `grid` from Simulator::build_grid() on that same state.
NeighbourStats neighbour_stats(const Snapshot& state, const GridSnapshot& grid,
                               const GridSpec& spec, float radius);

}  // namespace plab::sim
