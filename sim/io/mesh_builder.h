#pragma once
// A TriangleMesh built triangle by triangle by the mesh readers (STL, OBJ): each triangle is
// checked (finite corners within kMaxMeshCoordinate, some area) and its corners are welded by
// their exact bits (-0 counted as +0), so triangles that share a corner share a vertex however
// the file lists them. Private to sim/io.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim {

class MeshBuilder {
  public:
    // Checks the triangle (plab::Error naming `name` and the triangle's index from 0) and adds it.
    void add(const std::array<Vec3, 3>& corners, std::string_view name);
    std::size_t triangle_count() const { return mesh.triangles.size(); }

    TriangleMesh mesh;

  private:
    uint32_t vertex(Vec3 v);

    struct Hash {
        std::size_t operator()(const std::array<uint32_t, 3>& k) const {
            return (std::size_t{k[0]} * 0x9e3779b97f4a7c15ull) ^ (std::size_t{k[1]} << 21) ^
                   (std::size_t{k[2]} * 0xbf58476d1ce4e5b9ull);
        }
    };
    std::unordered_map<std::array<uint32_t, 3>, uint32_t, Hash> index_;
};

}  // namespace plab::sim
