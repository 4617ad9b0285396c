#pragma once
// The scene's bodies placed in the world, as a run holds them from its start: every body's
// triangles in one list (vertex indices made unique over the scene, so features are shared
// only inside a body) and each body's surface motion. Built once when a scene starts; the
// simulators bin the triangles into their grid at reset (triangle_bins.h).
#include <cstddef>
#include <string>
#include <vector>

#include "sim/geometry/body.h"
#include "sim/geometry/geometry_view.h"
#include "sim/geometry/liquid_side.h"
#include "sim/model/grid.h"

namespace plab::sim {

struct SceneGeometry {
    std::vector<GeoTriangle> triangles;
    std::vector<GeoBody> bodies;
    std::vector<std::string> body_names;  // "geometry[0] (mesh funnel.stl)", for messages
    std::vector<LiquidSide> sides;        // liquid_sides of the triangles, one per body

    bool empty() const { return triangles.empty(); }
};

// Places every body (body_surface, check_body), a closed one wound to face the particles
// (outward, or inward when `inside`) and a plane to face along its normal (liquid_side.h).
// Throws plab::Error "geometry[i] (<shape>):
// <reason>" for the first body that cannot run, or when the scene's triangles together pass
// kMaxMeshTriangles.
SceneGeometry place_bodies(const std::vector<Body>& bodies, const Domain& domain);

}  // namespace plab::sim
