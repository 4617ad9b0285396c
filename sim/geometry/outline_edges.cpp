#include "sim/geometry/outline_edges.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <unordered_map>

namespace plab::sim {
namespace {

struct EdgeFaces {
    Vec3 a, b;
    Vec3 normal[2];  // unit normals of the first two triangles that share the edge
    int faces = 0;
};

Vec3 unit_normal(const GeoTriangle& t) {
    const Vec3 n = cross(t.b - t.a, t.c - t.a);
    const float len = std::sqrt(length_squared(n));
    return len > 0.f ? n * (1.f / len) : Vec3{};
}

}  // namespace

std::vector<Vec3> outline_edges(const SceneGeometry& g, const OutlineOptions& options) {
    std::vector<std::size_t> triangles_of(g.bodies.size(), 0);
    for (const GeoTriangle& t : g.triangles)
        if (t.body < triangles_of.size()) ++triangles_of[t.body];
    // Two faces whose normals are closer than this meet at less than the crease angle. Normals
    // of one surface may point either way (an STL file need not orient its triangles), so the
    // angle between the lines, not the vectors, decides.
    const float flat_cos = std::cos(options.crease_deg * std::numbers::pi_v<float> / 180.f);
    std::vector<Vec3> out;
    for (std::size_t body = 0; body < g.bodies.size(); ++body) {
        std::unordered_map<uint64_t, EdgeFaces> edges;
        std::vector<uint64_t> order;  // first appearance, so the output does not depend on hashing
        for (const GeoTriangle& t : g.triangles) {
            if (t.body != body) continue;
            const Vec3 n = unit_normal(t);
            const Vec3 corner[3] = {t.a, t.b, t.c};
            const uint32_t id[3] = {t.va, t.vb, t.vc};
            for (int k = 0; k < 3; ++k) {
                const uint32_t u = id[k], v = id[(k + 1) % 3];
                const uint64_t key = (uint64_t{std::min(u, v)} << 32) | std::max(u, v);
                auto [it, fresh] = edges.try_emplace(key);
                EdgeFaces& e = it->second;
                if (fresh) {
                    e.a = corner[k];
                    e.b = corner[(k + 1) % 3];
                    order.push_back(key);
                }
                if (e.faces < 2) e.normal[e.faces] = n;
                ++e.faces;
            }
        }
        const bool every = triangles_of[body] <= options.all_edges_up_to;
        for (const uint64_t key : order) {
            const EdgeFaces& e = edges[key];
            const bool outline = e.faces != 2;
            const bool crease = !outline && std::fabs(dot(e.normal[0], e.normal[1])) < flat_cos;
            if (every || outline || crease) {
                out.push_back(e.a);
                out.push_back(e.b);
            }
        }
    }
    return out;
}

}  // namespace plab::sim
