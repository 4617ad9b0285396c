#pragma once
// One block of particles in a scene: a box, or the sphere inscribed in it, filled on a jittered
// cubic lattice (model/block_lattice.h walks it, model/scene.h lists the blocks).
#include "sim/core/vec.h"

namespace plab::sim {

enum class BlockShape { Box, Sphere };

struct ParticleBlock {
    BlockShape shape = BlockShape::Box;
    Vec3 min, max;        // m, bounding box of the block (a sphere is inscribed in it)
    float spacing = 0.f;  // m, lattice spacing; lattice points sit at min + spacing·(i + ½)
    float jitter = 0.f;   // m, each coordinate moves by a uniform amount in [−jitter, jitter]
    Vec3 velocity;        // m/s, initial velocity of every particle of the block
};

}  // namespace plab::sim
