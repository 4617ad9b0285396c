#pragma once
// Wavefront OBJ meshes read into a TriangleMesh, with errors that name the file and line.
// Read: `v x y z` (a fourth to sixth number, a weight or a colour, is ignored) and `f` faces of
// three or more corners (`i`, `i/t`, `i//n` or `i/t/n`; 1-based, or negative counting back
// from the last vertex), a polygon cut into a fan of triangles from its first corner (so it
// should be convex, as exporters write them). Ignored: comments, texture coordinates, normals
// (recomputed from the corners), objects, groups, smoothing, materials, lines and points.
// Refused: free-form curves and surfaces, any other statement, an index of no vertex, and what
// the STL reader refuses (stl_file.h): no triangles, too many, a corner not finite or too far
// out, a triangle without area. Corners are welded as the STL reader welds them.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim {

// Parses `bytes`; `name` (the file) starts every message. No state between calls.
TriangleMesh read_obj(std::span<const std::byte> bytes, std::string_view name);

// Reads `path` (a regular file of at most kMaxMeshFileBytes) and read_obj's it.
TriangleMesh load_obj(const std::filesystem::path& path);

// A mesh file by its extension, `.stl` or `.obj` (either case); another extension is refused
// with the ones it knows.
TriangleMesh load_mesh(const std::filesystem::path& path);

}  // namespace plab::sim
