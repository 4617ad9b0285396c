#pragma once
// Which side of a body the liquid is on, as SPH needs to know it (boundary_field.h). DEM meets a
// surface from either side and does not ask. The answer is read from the placed triangles
// alone, so a body restored from a checkpoint (which keeps triangles, not the scene file's
// shapes) gets the same answer as the scene that placed it:
//   - a closed body: place_bodies winds its triangles so that they face the liquid (outward
//     for a solid, inward for an `inside` body), and the sign of its enclosed volume says which;
//   - an open body whose triangles all lie in one plane (a plane primitive, a flat sheet):
//     the liquid is on the side its triangles face;
//   - any other open body has no side: SPH refuses it (sph_sides_unsupported).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/geometry/geometry_view.h"

namespace plab::sim {

enum class LiquidSide : uint8_t {
    Outside,  // closed, wound outward: the liquid surrounds it
    Inside,   // closed, wound inward: the liquid is inside it (a tank, a drum)
    Facing,   // flat and open: the liquid is where its triangles face
    None,     // open and not flat: no side
};

// One entry per body (triangles name their body; `bodies` bodies in all).
std::vector<LiquidSide> liquid_sides(const std::vector<GeoTriangle>& triangles, std::size_t bodies);

// m³, the volume a closed body's triangles enclose: positive when they are wound to face out.
double enclosed_volume(const std::vector<GeoTriangle>& triangles, uint32_t body);

}  // namespace plab::sim
