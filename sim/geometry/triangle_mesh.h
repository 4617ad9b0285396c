#pragma once
// A triangle mesh as the scene's geometry holds it: shared vertices (welded where an STL file
// repeats them) and triangles as three vertex indices, in metres, before the body's scale,
// rotation and translation. What the contact and the signed-distance field need to know of a
// mesh's shape is asked here: its bounds, its area and whether it closes (every edge shared by
// exactly two triangles), which an `inside` body requires.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core/vec.h"
#include "sim/model/grid.h"

namespace plab::sim {

struct TriangleMesh {
    std::vector<Vec3> vertices;                      // m
    std::vector<std::array<uint32_t, 3>> triangles;  // indices into vertices, counter-clockwise
                                                     // seen from outside (the STL convention)

    std::size_t triangle_count() const { return triangles.size(); }
};

// The box the vertices span (min > max on every axis for an empty mesh).
Domain mesh_bounds(const TriangleMesh& mesh);

// m², the sum of the triangles' areas.
double mesh_area(const TriangleMesh& mesh);

// Edges not shared by exactly two triangles: 0 for a closed (watertight) surface.
std::size_t open_edge_count(const TriangleMesh& mesh);
// The same for edges given as vertex pairs, either way round (each triangle's three).
std::size_t open_edge_count(std::vector<std::pair<uint32_t, uint32_t>> edges);

}  // namespace plab::sim
