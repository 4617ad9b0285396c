#pragma once
// The state a simulator starts from: a fresh scene's particles placed on their blocks'
// lattices, or a state captured from a running simulator (captures, checkpoints).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/vec.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"
#include "sim/physics/friction_record.h"

namespace plab::sim {

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
    // The scene's bodies, placed (null or empty: none). Shared, since captures and rewinds
    // keep the same bodies; the simulators bin them into their grid at reset.
    std::shared_ptr<const SceneGeometry> geometry;
};

// Places `count` particles (blocks in order, x fastest, then y, then z) and builds the grid
// (scene_grid). Throws plab::Error when the parameters are invalid, check_scene fails, or a
// particle would start outside the domain or at a non-finite position (a jitter past the
// walls, coordinates that overflow).
InitialState build_initial_state(const Scene& scene, const Params& params, std::size_t count);

}  // namespace plab::sim
