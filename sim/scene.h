#pragma once
// A scene says where particles start: a domain box and blocks of particles placed on a
// jittered cubic lattice. Presets and scene files build scenes. Sizes are counted by
// arithmetic (a box in closed form, a sphere row by row), never by visiting every lattice
// point, and every limit is in sim/input_limits.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/friction_record.h"
#include "sim/grid.h"
#include "sim/input_limits.h"
#include "sim/params.h"
#include "sim/vec.h"

namespace plab::sim {

enum class BlockShape { Box, Sphere };

struct ParticleBlock {
    BlockShape shape = BlockShape::Box;
    Vec3 min, max;        // m, bounding box of the block (a sphere is inscribed in it)
    float spacing = 0.f;  // m, lattice spacing; lattice points sit at min + spacing·(i + ½)
    float jitter = 0.f;   // m, each coordinate moves by a uniform amount in [−jitter, jitter]
    Vec3 velocity;        // m/s, initial velocity of every particle of the block
};

struct Scene {
    std::string name;
    Domain domain;
    std::vector<ParticleBlock> blocks;
    uint64_t seed = 1;  // for the jitter; the same scene always starts the same way
};

// Everything a simulator needs to start.
struct InitialState {
    Domain domain;
    GridSpec grid;
    std::vector<Float4> pos, vel;  // in id order, unless `order` is given
    // A state captured from a running simulator (Simulator::capture_state, checkpoints), so
    // that continuing it is bit for bit the run that was stopped: `order` is the particle id
    // at each memory slot (pos and vel are then in that order: the order inside a grid cell
    // decides the order of the force sums), and pos_hi/vel_hi the double-precision state
    // while double_state ran. Empty for a fresh scene.
    std::vector<uint32_t> order;
    std::vector<Double4> pos_hi, vel_hi;
    // The frictional contact law's rotations and contact memory by id, captured once the law
    // has run (empty otherwise, and for a fresh scene: the law then starts from rest).
    FrictionRecord friction;
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

// Places `count` particles (blocks in order, x fastest, then y, then z) and builds the grid
// (scene_grid). Throws plab::Error when the parameters are invalid, check_scene fails, or a
// particle would start outside the domain or at a non-finite position (a jitter past the
// walls, coordinates that overflow).
InitialState build_initial_state(const Scene& scene, const Params& params, std::size_t count);

}  // namespace plab::sim
