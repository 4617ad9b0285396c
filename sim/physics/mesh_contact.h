#pragma once
// Beads against the scene's triangles (the geometry bodies), shared by both backends. A bead
// touches a triangle at the triangle's point nearest its centre, which lies on the face, on an
// edge or at a corner. A surface cut into triangles shows one contact in several of them: a
// bead pressed into a flat mesh reaches every triangle within the small disc it sinks into,
// and each reports its own nearest point, on the face under the bead or on an edge or corner
// around it. Those are one contact. The rule that keeps one: a touch whose point lies on, or
// behind, the tangent plane of a nearer touch (the plane through the nearer point, normal to
// the line to the bead's centre) is part of that nearer touch's surface and is dropped. A flat
// or convex surface then pushes as one plane (the face under the bead, or the one edge or
// corner nearest it), while in a concave crease or corner each face rises in front of the
// others' planes and pushes too.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"
#include "sim/geometry/nearest_on_triangle.h"
#include "sim/model/params.h"
#include "sim/physics/dem_contact.h"

namespace plab::sim {

// Touches a bead can have at once, before the rule above drops the repeated ones (a bead over
// a corner of a fine mesh reaches a dozen triangles); more (a bead in a needle-sharp cone of
// many thin triangles) are dropped, which costs accuracy, never safety: the walls still hold
// the bead.
inline constexpr int kMaxMeshTouches = 16;

// How far in front of a nearer touch's tangent plane a point may lie and still count as on
// it, as a fraction of the bead's radius: far above the rounding of the triangles' corners,
// far below any real bend (a point a radius away rising 0.06° out of the plane).
inline constexpr float kSamePlaneTolerance = 1e-3f;

// Whether touch i of the n a bead at `pos` found is part of a nearer touch's surface (the rule
// at the top of this file): point(j) and dist2(j) give touch j's nearest point and its squared
// distance from `pos`, in the order found.
template <typename Point, typename Dist2>
PLAB_HD inline bool mesh_touch_hidden(int i, int n, Vec3 pos, float radius, Point&& point,
                                      Dist2&& dist2) {
    const float tolerance = kSamePlaneTolerance * radius;
    const Vec3 pi = point(i);
    const float di = dist2(i);
    for (int j = 0; j < n; ++j) {
        // j hides i when it is nearer (of two as near, the first found) and i's point is on or
        // behind j's tangent plane: dot(P_i − P_j, c − P_j) ≤ tolerance · |c − P_j|.
        const float dj = dist2(j);
        if (!(dj < di || (dj == di && j < i))) continue;
        const Vec3 pj = point(j);
        if (dot(pi - pj, pos - pj) <= tolerance * sqrtf(dj)) return true;
    }
    return false;
}

// The classic law's force (N) of one contact of a bead with triangle t at its nearest point:
// as with an immovable sphere of radius 0 there, moving with the body's surface.
PLAB_HD inline Vec3 mesh_touch_force(Vec3 pos, Vec3 vel, uint32_t id, Vec3 point, uint32_t t,
                                     const GeometryView& geo, const Params& p) {
    const Vec3 wall_vel = surface_velocity(geo.bodies[geo.triangles[t].body], point);
    return contact_force(pos, vel, id, p.radius, point, wall_vel, 0xffffffffu, 0.f, p);
}

// Calls touch(nearest point, triangle) once for every contact of a bead of radius `radius` at
// `pos` with the scene's triangles (see the top of this file).
template <typename Touch>
PLAB_HD inline void for_each_mesh_touch(Vec3 pos, float radius, const GeometryView& geo,
                                        Touch&& touch) {
    if (!geo.active()) return;
    const uint32_t cell = cell_index(pos, geo.grid);
    const uint32_t begin = geo.bin_start[cell], end = geo.bin_start[cell + 1];
    if (begin == end) return;
    Vec3 found[kMaxMeshTouches];  // the nearest points (their features are not needed)
    float dist2[kMaxMeshTouches];
    uint32_t tri[kMaxMeshTouches];
    int n = 0;
    const float r2 = radius * radius;
    // The loads run ahead of the tests: the next triangle is fetched before this one is
    // tested, and the index after it before that, so a bead near a finely cut surface (a
    // hundred triangles in its bin) waits for one load a triangle, not for the index's and
    // then the triangle's one after the other.
    uint32_t t = geo.bin_items[begin];
    uint32_t t_after = begin + 1 < end ? geo.bin_items[begin + 1] : 0u;
    GeoTriangle next = geo.triangles[t];
    for (uint32_t k = begin; k < end && n < kMaxMeshTouches; ++k) {
        const GeoTriangle here = next;
        const uint32_t t_here = t;
        if (k + 1 < end) {
            t = t_after;
            next = geo.triangles[t];
            if (k + 2 < end) t_after = geo.bin_items[k + 2];
        }
        const NearestOnTriangle q = nearest_on_triangle(pos, here);
        const float d2 = length_squared(q.point - pos);
        if (d2 >= r2) continue;
        found[n] = q.point;
        dist2[n] = d2;
        tri[n] = t_here;
        ++n;
    }
    for (int i = 0; i < n; ++i)
        if (!mesh_touch_hidden(
                i, n, pos, radius, [&](int j) { return found[j]; },
                [&](int j) { return dist2[j]; }))
            touch(found[i], tri[i]);
}

// The classic law's force (N) on a bead from the scene's triangles: the sum of its contacts'
// (mesh_touch_force), in the order found.
PLAB_HD inline Vec3 mesh_force(Vec3 pos, Vec3 vel, uint32_t id, const GeometryView& geo,
                               const Params& p) {
    Vec3 force{};
    for_each_mesh_touch(pos, p.radius, geo, [&](Vec3 point, uint32_t t) {
        force += mesh_touch_force(pos, vel, id, point, t, geo, p);
    });
    return force;
}

}  // namespace plab::sim
