#pragma once
// A scene says where particles start: a domain box and blocks of particles placed on a
// jittered cubic lattice. Presets and scene files build scenes. Sizes are counted by
// arithmetic (a box in closed form, a sphere row by row), never by visiting every lattice
// point, and every limit is in sim/core/input_limits.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/input_limits.h"
#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/particle_block.h"

namespace plab::sim {

struct Scene {
    std::string name;
    Domain domain;
    std::vector<ParticleBlock> blocks;
    uint64_t seed = 1;  // for the jitter; the same scene always starts the same way
};

// How many particles the scene's blocks can place, counted up to `limit` (a scene that places
// more reports `limit`; by default kMaxParticles + 1, one past what a run may ask for).
// O(rows of a sphere) at most, and a sphere's rows are only counted until the limit.
std::size_t scene_capacity(const Scene& scene, std::size_t limit = kMaxParticles + 1);

// The box spanned by a block's lattice points (before jitter); min > max on some axis when
// the block places nothing.
Domain lattice_bounds(const ParticleBlock& block);

// The grid a run of `params` builds over `domain`: cells one interaction range wide (DEM),
// half of one searched two deep (SPH). Throws plab::Error when it is larger than kMaxCells.
GridSpec scene_grid(const Domain& domain, const Params& params);

// Throws plab::Error naming the scene (and the block) when it cannot start `count` particles
// with `params`: more than kMaxBlocks blocks; a block whose spacing is not positive, whose
// jitter is negative, whose velocity is not finite, that lies outside the domain or has more
// than kMaxLatticeAxis lattice points along an axis; a count above kMaxParticles or above
// scene_capacity; a grid larger than kMaxCells.
void check_scene(const Scene& scene, const Params& params, std::size_t count);

}  // namespace plab::sim
