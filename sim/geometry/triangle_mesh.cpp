#include "sim/geometry/triangle_mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace plab::sim {

Domain mesh_bounds(const TriangleMesh& mesh) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    Domain d{{kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
    for (const Vec3& v : mesh.vertices) {
        d.min = {std::min(d.min.x, v.x), std::min(d.min.y, v.y), std::min(d.min.z, v.z)};
        d.max = {std::max(d.max.x, v.x), std::max(d.max.y, v.y), std::max(d.max.z, v.z)};
    }
    return d;
}

double mesh_area(const TriangleMesh& mesh) {
    double area = 0;
    for (const auto& t : mesh.triangles) {
        const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
        // In double: a large mesh of small triangles would lose them in a float sum.
        const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
        const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
        const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
        area += 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
    }
    return area;
}

std::size_t open_edge_count(std::vector<std::pair<uint32_t, uint32_t>> edges) {
    for (auto& e : edges)
        if (e.first > e.second) std::swap(e.first, e.second);
    // Sorted, a closed surface lists each edge exactly twice.
    std::sort(edges.begin(), edges.end());
    std::size_t open = 0;
    for (std::size_t i = 0; i < edges.size();) {
        std::size_t j = i;
        while (j < edges.size() && edges[j] == edges[i]) ++j;
        if (j - i != 2) ++open;
        i = j;
    }
    return open;
}

std::size_t open_edge_count(const TriangleMesh& mesh) {
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    edges.reserve(mesh.triangles.size() * 3);
    for (const auto& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) edges.emplace_back(t[k], t[(k + 1) % 3]);
    return open_edge_count(std::move(edges));
}

}  // namespace plab::sim
