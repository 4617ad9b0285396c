#pragma once
// A flat welded triangle mesh for the geometry tests: every vertex shared by the triangles
// that meet there, so edges and corners between triangles are features of two or more.
#include <cstdint>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim::testing {

// A square of n × n quads (two triangles each, cut along one diagonal) spanning [-half, half]
// in x and z, in the plane y = 0, facing +y.
inline TriangleMesh flat_grid(int n, float half) {
    TriangleMesh m;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i)
            m.vertices.push_back({-half + 2 * half * i / n, 0.f, -half + 2 * half * j / n});
    auto at = [&](int i, int j) { return uint32_t(j * (n + 1) + i); };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            m.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
            m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
        }
    return m;
}

}  // namespace plab::sim::testing
