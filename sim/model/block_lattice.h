#pragma once
// The lattice of one particle block, row by row. A box block's rows are all full; a sphere
// block's rows are found by search, O(log) per slab and per row (usually a few evaluations
// from an estimate), never by visiting the lattice points outside the sphere. The points and
// the inside test are the float formulas placement always used, so counting and placing give
// the same particles, bit for bit, as visiting every point would.
#include <cstdint>
#include <functional>

#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/particle_block.h"

namespace plab::sim {

// Lattice points along each axis, each clamped to kMaxLatticeAxis + 1 (check_scene refuses
// such a block) before it is converted to an integer.
struct LatticeDims {
    uint64_t x = 0, y = 0, z = 0;
};
LatticeDims lattice_dims(const ParticleBlock& b);

// Lattice point (ix, iy, iz): min + spacing · (i + ½) on each axis, in float.
Vec3 lattice_point(const ParticleBlock& b, uint64_t ix, uint64_t iy, uint64_t iz);

// One row of points inside the block's shape: x from first_x up to (not including) end_x.
struct LatticeRow {
    uint64_t y = 0, z = 0;
    uint64_t first_x = 0, end_x = 0;
};

// Calls `row` for every non-empty row in placement order (z slowest, then y) until it
// returns false.
void for_each_row(const ParticleBlock& b, const std::function<bool(const LatticeRow&)>& row);

// Points the block places, counted up to `limit` (a block with more returns `limit`).
uint64_t block_capacity(const ParticleBlock& b, uint64_t limit);

}  // namespace plab::sim
