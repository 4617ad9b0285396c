#pragma once
// Scenes and checks shared by the simulation tests.
#include <cstdint>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"

namespace plab::sim::testing {

// An InitialState with the given positions (zero velocity) in `domain`, grid for `radius`.
InitialState state_from_positions(const std::vector<Vec3>& pos, const Domain& domain, float radius);

// Classic beads of 1 cm radius and 1 g for containers a few decimetres across: stiff enough
// that a bead falling across one at 3 m/s sinks less than a tenth of its radius into a wall
// (v √(m/k) = 0.9 mm), dt 0.1 ms in calls of 10 steps, no collider, no air drag.
Params container_bead_params();

// Uniformly random positions inside the domain.
std::vector<Vec3> random_positions(std::size_t n, const Domain& domain, uint64_t seed);

// Positions packed into a few small clusters (many particles per cell).
std::vector<Vec3> clustered_positions(std::size_t n, const Domain& domain, uint64_t seed);

// Cells of `pos` sorted with std::stable_sort: the reference for the counting sort.
struct SortReference {
    std::vector<uint32_t> sorted_id, sorted_cell;
};
SortReference stable_sort_reference(const std::vector<Vec3>& pos, const GridSpec& grid);

}  // namespace plab::sim::testing
