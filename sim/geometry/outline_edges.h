#pragma once
// The lines that show the scene's bodies in a view: every edge of a small surface, and of a
// large one only its outline (edges of one triangle: rims, openings) and its creases (edges
// where the two faces meet at more than a crease angle: a box's 12 edges, a funnel's rim and
// spout), so a 100k-triangle mesh does not turn into a grey blur of lines.
#include <cstddef>
#include <vector>

#include "sim/core/vec.h"
#include "sim/geometry/scene_geometry.h"

namespace plab::sim {

struct OutlineOptions {
    std::size_t all_edges_up_to = 4096;  // bodies of at most this many triangles: every edge
    float crease_deg = 20.f;             // else: faces bent by more than this
};

// Line-list end points (two per edge, m), each edge once (by its welded vertex ids), body by
// body in the scene's order.
std::vector<Vec3> outline_edges(const SceneGeometry& geometry, const OutlineOptions& options = {});

}  // namespace plab::sim
