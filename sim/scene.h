#pragma once
// A scene says where particles start: a domain box and blocks of particles placed on a
// jittered cubic lattice. Presets build scenes; scene files (later) will too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/grid.h"
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
    std::vector<Float4> pos, vel;  // in id order
};

// How many particles the scene's blocks can place.
std::size_t scene_capacity(const Scene& scene);

// Places `count` particles (blocks in order, x fastest, then y, then z) and builds the grid
// with one-diameter cells. Throws plab::Error when the parameters are invalid, a block lies
// outside the domain, or `count` exceeds scene_capacity.
InitialState build_initial_state(const Scene& scene, const Params& params, std::size_t count);

}  // namespace plab::sim
