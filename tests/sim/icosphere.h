#pragma once
// A closed, welded sphere of triangles for the geometry tests: an icosahedron whose faces are
// cut into four `levels` times, the new corners pushed out onto the sphere.
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim::testing {

// 20 × 4^levels triangles, every corner on the sphere of `radius` about the origin, facing out.
inline TriangleMesh icosphere(int levels, float radius) {
    TriangleMesh m;
    const float t = (1.f + std::sqrt(5.f)) / 2.f;
    auto push = [&](Vec3 v) {
        m.vertices.push_back(v * (radius / std::sqrt(length_squared(v))));
        return uint32_t(m.vertices.size() - 1);
    };
    for (const Vec3 v : {Vec3{-1, t, 0}, Vec3{1, t, 0}, Vec3{-1, -t, 0}, Vec3{1, -t, 0},
                         Vec3{0, -1, t}, Vec3{0, 1, t}, Vec3{0, -1, -t}, Vec3{0, 1, -t},
                         Vec3{t, 0, -1}, Vec3{t, 0, 1}, Vec3{-t, 0, -1}, Vec3{-t, 0, 1}})
        push(v);
    m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int level = 0; level < levels; ++level) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> middle;  // welds shared edges
        auto mid = [&](uint32_t a, uint32_t b) {
            const auto key = std::minmax(a, b);
            if (const auto it = middle.find(key); it != middle.end()) return it->second;
            const uint32_t v = push(0.5f * (m.vertices[a] + m.vertices[b]));
            middle[key] = v;
            return v;
        };
        std::vector<std::array<uint32_t, 3>> finer;
        for (const auto& [a, b, c] : m.triangles) {
            const uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            finer.push_back({a, ab, ca});
            finer.push_back({b, bc, ab});
            finer.push_back({c, ca, bc});
            finer.push_back({ab, bc, ca});
        }
        m.triangles = std::move(finer);
    }
    return m;
}

}  // namespace plab::sim::testing
