#include "sim/geometry/liquid_side.h"

#include <cmath>
#include <utility>

#include "sim/geometry/triangle_mesh.h"

namespace plab::sim {
namespace {

Vec3d to_double(Vec3 v) { return {v.x, v.y, v.z}; }

Vec3d cross_d(Vec3d a, Vec3d b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec3d minus_d(Vec3d a, Vec3d b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

double dot_d(Vec3d a, Vec3d b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Whether every corner of the body lies in the plane of its largest triangle, within 1e-5 of
// the body's size (the rounding of a placement that rotates it).
bool flat(const std::vector<GeoTriangle>& triangles, uint32_t body) {
    Vec3d n{}, origin{}, lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    double best = 0;
    for (const GeoTriangle& t : triangles) {
        if (t.body != body) continue;
        const Vec3d a = to_double(t.a);
        const Vec3d f = cross_d(minus_d(to_double(t.b), a), minus_d(to_double(t.c), a));
        const double area2 = dot_d(f, f);
        if (area2 > best) {
            best = area2;
            n = f;
            origin = a;
        }
        for (const Vec3 v : {t.a, t.b, t.c}) {
            lo = {std::fmin(lo.x, v.x), std::fmin(lo.y, v.y), std::fmin(lo.z, v.z)};
            hi = {std::fmax(hi.x, v.x), std::fmax(hi.y, v.y), std::fmax(hi.z, v.z)};
        }
    }
    if (!(best > 0)) return false;
    const Vec3d extent = minus_d(hi, lo);
    const double tolerance = 1e-5 * std::sqrt(dot_d(extent, extent));
    const double inv = 1.0 / std::sqrt(best);
    n = {n.x * inv, n.y * inv, n.z * inv};
    for (const GeoTriangle& t : triangles) {
        if (t.body != body) continue;
        for (const Vec3 v : {t.a, t.b, t.c})
            if (std::fabs(dot_d(minus_d(to_double(v), origin), n)) > tolerance) return false;
    }
    return true;
}

}  // namespace

double enclosed_volume(const std::vector<GeoTriangle>& triangles, uint32_t body) {
    // The divergence theorem over the faces: Σ a · (b × c) / 6, in double (a large mesh of
    // small triangles would lose them in a float sum).
    double six_v = 0;
    for (const GeoTriangle& t : triangles)
        if (t.body == body) six_v += dot_d(to_double(t.a), cross_d(to_double(t.b), to_double(t.c)));
    return six_v / 6.0;
}

std::vector<LiquidSide> liquid_sides(const std::vector<GeoTriangle>& triangles,
                                     std::size_t bodies) {
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> edges(bodies);
    for (const GeoTriangle& t : triangles) {
        if (t.body >= bodies) continue;
        auto& e = edges[t.body];
        e.emplace_back(t.va, t.vb);
        e.emplace_back(t.vb, t.vc);
        e.emplace_back(t.vc, t.va);
    }
    std::vector<LiquidSide> sides(bodies, LiquidSide::None);
    for (uint32_t b = 0; b < bodies; ++b) {
        if (edges[b].empty()) continue;
        if (open_edge_count(std::move(edges[b])) == 0)
            sides[b] =
                enclosed_volume(triangles, b) >= 0 ? LiquidSide::Outside : LiquidSide::Inside;
        else if (flat(triangles, b))
            sides[b] = LiquidSide::Facing;
    }
    return sides;
}

}  // namespace plab::sim
