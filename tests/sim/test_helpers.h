#pragma once
// Scenes and checks shared by the simulation tests.
#include <cstdint>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/scene.h"

namespace plab::sim::testing {

// An InitialState with the given positions (zero velocity) in `domain`, grid for `radius`.
InitialState state_from_positions(const std::vector<Vec3>& pos, const Domain& domain, float radius);

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
