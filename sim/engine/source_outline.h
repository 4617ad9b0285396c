#pragma once
// Where the emitters and sinks are, for views to draw: line segments (pairs of ends, m) of each
// sink's box, each emitter's face border (a disc as a polygon) and an arrow along its normal.
#include <vector>

#include "sim/core/vec.h"
#include "sim/model/sources.h"

namespace plab::sim {

// Segments of the sinks' boxes (12 edges each).
std::vector<Vec3> sink_outline_edges(const Sources& sources);
// Segments of the emitters' faces (a disc as a polygon of `sides`) and their normals' arrows
// (half the face's width long).
std::vector<Vec3> emitter_outline_edges(const Sources& sources, int sides = 32);

}  // namespace plab::sim
