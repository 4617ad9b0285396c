#pragma once
// STL meshes (binary and ASCII) read into a TriangleMesh, with errors a person can act on:
// each names the file and, where one is at fault, the triangle (counted from 0) or the line.
// Binary when the size is exactly 84 + 50 × the header's triangle count, else ASCII, which
// must start with `solid`. Refused: an empty or truncated file, more than kMaxMeshTriangles
// triangles, a coordinate that is not finite or farther than kMaxMeshCoordinate, a triangle
// without area. Repeated corners are welded into shared vertices (exact float equality), so
// the mesh knows which triangles meet at an edge.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim {

// Parses `bytes`; `name` (the file) starts every message. Keeps no state between calls (the
// fuzz target feeds it arbitrary bytes).
TriangleMesh read_stl(std::span<const std::byte> bytes, std::string_view name);

// Reads `path` (a regular file of at most kMaxMeshFileBytes) and read_stl's it.
TriangleMesh load_stl(const std::filesystem::path& path);

// The mesh as a binary STL (normals from the corners' order), for meshes the project writes
// itself; write_stl writes it atomically (io/output_file.h).
std::string encode_stl(const TriangleMesh& mesh, std::string_view header = "particle-lab");
void write_stl(const std::filesystem::path& path, const TriangleMesh& mesh);

}  // namespace plab::sim
