#pragma once
// The point of a triangle nearest a given point, and the feature (face, edge or corner) it
// lies on, named by the triangle's welded vertex indices: what the bead contact
// (sim/physics/mesh_contact.h) and the triangle bins (triangle_bins.h) measure with.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"

namespace plab::sim {

// What part of a triangle the nearest point lies on.
enum class Feature : uint8_t { Face, Edge, Corner };

struct NearestOnTriangle {
    Vec3 point;
    Feature feature = Feature::Face;
    // Face: the triangle's corners; Edge: the edge's ends, lower index first; Corner: the corner.
    uint32_t v0 = 0, v1 = 0, v2 = 0;
};

// The point of triangle (a, b, c) nearest p, by the Voronoi regions of its corners and edges
// (corners first, then edges, else the face), and which feature it lies on.
PLAB_HD inline NearestOnTriangle nearest_on_triangle(Vec3 p, const GeoTriangle& t) {
    NearestOnTriangle r;
    auto corner = [&](Vec3 x, uint32_t v) {
        r.point = x;
        r.feature = Feature::Corner;
        r.v0 = r.v1 = r.v2 = v;
        return r;
    };
    auto edge = [&](Vec3 x, uint32_t u, uint32_t v) {
        r.point = x;
        r.feature = Feature::Edge;
        r.v0 = u < v ? u : v;
        r.v1 = r.v2 = u < v ? v : u;
        return r;
    };
    // An edge's parameter num / den, with 0 ≤ num ≤ den by the region tests; 0 where den
    // underflowed to 0 (a triangle of sides below ~1e-19 m), never 0/0.
    auto share = [](float num, float den) { return den > 0.f ? num / den : 0.f; };
    const Vec3 ab = t.b - t.a, ac = t.c - t.a;
    const Vec3 ap = p - t.a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.f && d2 <= 0.f) return corner(t.a, t.va);
    const Vec3 bp = p - t.b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.f && d4 <= d3) return corner(t.b, t.vb);
    const float in_c = d1 * d4 - d3 * d2;  // barycentric weight of c, times the area
    if (in_c <= 0.f && d1 >= 0.f && d3 <= 0.f)
        return edge(t.a + ab * share(d1, d1 - d3), t.va, t.vb);
    const Vec3 cp = p - t.c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.f && d5 <= d6) return corner(t.c, t.vc);
    const float in_b = d5 * d2 - d1 * d6;
    if (in_b <= 0.f && d2 >= 0.f && d6 <= 0.f)
        return edge(t.a + ac * share(d2, d2 - d6), t.va, t.vc);
    const float in_a = d3 * d6 - d5 * d4;
    if (in_a <= 0.f && d4 - d3 >= 0.f && d5 - d6 >= 0.f)
        return edge(t.b + (t.c - t.b) * share(d4 - d3, (d4 - d3) + (d5 - d6)), t.vb, t.vc);
    // A triangle so small that its squared area underflows has no face in float: its first
    // corner stands for it (else 0/0 would put the point at NaN).
    const float area = in_a + in_b + in_c;
    if (!(area > 0.f)) return corner(t.a, t.va);
    const float inv = 1.f / area;
    r.point = t.a + ab * (in_b * inv) + ac * (in_c * inv);
    r.feature = Feature::Face;
    r.v0 = t.va;
    r.v1 = t.vb;
    r.v2 = t.vc;
    return r;
}

}  // namespace plab::sim
