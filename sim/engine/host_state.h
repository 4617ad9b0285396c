#pragma once
// Helpers on host copies of the state that both backends use for downloads and stats.
#include <cstdint>
#include <span>
#include <string>

#include "sim/engine/simulator.h"
#include "sim/geometry/boundary_field.h"

namespace plab::sim {

// Puts cell-ordered arrays back into id order.
Snapshot to_id_order(std::span<const Float4> pos, std::span<const Float4> vel,
                     std::span<const uint32_t> id);

// Throws plab::Error unless a captured state's extras fit its particles: `order` empty or a
// permutation of the ids, pos_hi/vel_hi empty or one per particle (and only with an order),
// the frictional state empty or one for these particles (friction_record_problem).
// Backends call it in reset before they change anything.
void check_captured_state(const InitialState& initial);

// Why a step of `params` cannot run with the scene's bodies `geometry` (null or empty: none),
// "" when it can: both DEM laws meet any body; SPH needs to know each body's liquid side
// (sph_sides_unsupported). Backends return it from Simulator::unsupported and check it in
// reset before they change anything.
std::string geometry_unsupported(const SceneGeometry* geometry, const Params& params);
// Throws plab::Error unless `next` has the running bodies' triangles (the same count, every
// corner where it was) and as many bodies, each with a finite motion: set_body_motions' check.
void require_same_bodies(const SceneGeometry* running, const SceneGeometry& next);

// The reach the bodies' triangles are binned for (triangle_bins.h): the largest bead radius.
float geometry_reach(const Params& params);

// The bodies' distance field an SPH run of `params` reads (boundary_field.h; empty for DEM or
// without bodies): nodes a smoothing length apart, exact to the kernel's reach plus two nodes,
// so that all eight nodes around a particle within reach of a surface hold true distances.
BoundaryField sph_body_field(const SceneGeometry* geometry, const Domain& domain,
                             const Params& params);

// What a reset builds from the scene's bodies (the DEM bins in the grid, the SPH distance
// field) depends on: the bodies (the shared object), the domain and grid, the model, the bead
// reach and the smoothing length. A reset whose key equals the last one's keeps what that one
// built (the emitters' resets, rewinds), instead of building it again.
struct BodiesBuildKey {
    const SceneGeometry* geometry = nullptr;
    Domain domain;
    GridSpec grid;
    Model model = Model::Dem;
    float reach = 0.f, h = 0.f;
};
BodiesBuildKey bodies_build_key(const InitialState& initial, const Params& params);
BodiesBuildKey bodies_build_key(const SceneGeometry* geometry, const Domain& domain,
                                const GridSpec& grid, const Params& params);
bool operator==(const BodiesBuildKey& a, const BodiesBuildKey& b);

// `with_density`: also the density statistics from vel.w (SPH).
SimStats compute_stats(std::span<const Float4> pos, std::span<const Float4> vel, float mass,
                       bool with_density);

}  // namespace plab::sim
