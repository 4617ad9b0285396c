#pragma once
// The scene's bodies as SPH walls. The bodies' distance field (sim/geometry/boundary_field.h)
// gives a particle its nearest face (distance and direction, interpolated between nodes), or,
// in a crease (a tank's edge or corner, a narrow gap), the exact planes of its two or three
// faces (from the nearest node). Each face lends the density and push of the mirrored-liquid
// tables (sph_kernel.h) at its distance, as a domain wall does, and each is a hard surface
// half a spacing out. Where faces meet at right angles (a box's edges and corners) the
// spaces beyond two or three of them, which their tables count more than once, are corrected
// as for the domain's edges and corners (for_each_wall_overlap in the faces' frame); at other
// angles the overlap stays, a little extra density in the crease.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/field_sample.h"
#include "sim/geometry/geometry_view.h"
#include "sim/model/sph_constants.h"
#include "sim/physics/sph_kernel.h"

namespace plab::sim {

// The faces of the bodies within reach of one particle, each a plane: unit normal n[k] into
// the liquid, the particle's distance d[k] (m, negative inside a body) and the offset o[k]
// with d = dot(n, x) − o at any point x near the particle; bit k of `near` says face k is
// within reach. (Fixed slots, tested by bit, keep the arrays in registers on the GPU.)
struct BodyWalls {
    Vec3 n[kCreaseSlots];
    float d[kCreaseSlots] = {};
    float o[kCreaseSlots] = {};
    unsigned near = 0;

    PLAB_HD bool any() const { return near != 0; }
    PLAB_HD bool has(int k) const { return (near >> k & 1u) != 0; }
};

// Faces at a right angle (within 3°) overlap in a quarter-space that is corrected.
PLAB_HD inline bool body_faces_square(Vec3 a, Vec3 b) { return fabsf(dot(a, b)) < 0.05f; }

PLAB_HD inline BodyWalls body_walls(Vec3 pos, const FieldView& f, float reach) {
    BodyWalls w;
    if (!f.active()) return w;
    const Float4* planes = f.crease + kCreaseSlots * field_nearest_node(f, pos);
    if (length_squared(xyz(planes[1])) > 0.f) {  // in a crease: the faces' exact planes
        PLAB_UNROLL
        for (uint32_t s = 0; s < kCreaseSlots; ++s) {
            const Float4 p = planes[s];
            const Vec3 n = xyz(p);
            const float d = dot(n, pos) - p.w;
            if (length_squared(n) == 0.f || !(d < reach)) continue;
            w.n[s] = n;
            w.d[s] = d;
            w.o[s] = p.w;
            w.near |= 1u << s;
        }
        return w;
    }
    const Float4 s = sample_field(f, pos);
    const float len2 = s.x * s.x + s.y * s.y + s.z * s.z;
    if (s.w < reach && len2 > 0.f) {
        w.n[0] = xyz(s) * (1.f / sqrtf(len2));
        w.d[0] = s.w;
        w.o[0] = dot(w.n[0], pos) - s.w;
        w.near = 1u;
    }
    return w;
}

// Calls visit(r, sign) for the image points where w's faces meet at right angles (r:
// particle − image, in world coordinates), as for_each_wall_overlap does for the box's edges
// and corners: the three faces' frame when all three are near and square to each other, else
// each square pair's, the third axis along their edge.
template <typename Visit>
PLAB_HD inline void for_each_crease_image(const BodyWalls& w, float dx, float reach,
                                          Visit&& visit) {
    if (w.near == 0u || w.near == 1u || w.near == 2u || w.near == 4u) return;
    constexpr float kFar = 1e30f;
    auto frame = [&](int a, int b, int c) {
        const Vec3 nc = c >= 0 ? w.n[c] : cross(w.n[a], w.n[b]);
        const Vec3 local{w.d[a] > 0.f ? w.d[a] : 0.f, w.d[b] > 0.f ? w.d[b] : 0.f,
                         c >= 0 && w.d[c] > 0.f ? w.d[c] : 0.f};
        const Vec3 lo{0.f, 0.f, c >= 0 ? 0.f : -kFar};
        for_each_wall_overlap(
            local, lo, Vec3{kFar, kFar, kFar}, dx, reach,
            [&](Vec3 r, float sign) { visit(w.n[a] * r.x + w.n[b] * r.y + nc * r.z, sign); });
    };
    const bool s01 = w.has(0) && w.has(1) && body_faces_square(w.n[0], w.n[1]);
    const bool s02 = w.has(0) && w.has(2) && body_faces_square(w.n[0], w.n[2]);
    const bool s12 = w.has(1) && w.has(2) && body_faces_square(w.n[1], w.n[2]);
    if (s01 && s02 && s12) return frame(0, 1, 2);
    if (s01) frame(0, 1, -1);
    if (s02) frame(0, 2, -1);
    if (s12) frame(1, 2, -1);
}

// Density the bodies lend (kg/m³): mirrored liquid at rest density behind each face.
PLAB_HD inline float body_wall_density(const BodyWalls& w, float dx, const SphConstants& c) {
    if (!w.any()) return 0.f;
    float share = 0.f;
    PLAB_UNROLL
    for (int k = 0; k < static_cast<int>(kCreaseSlots); ++k)
        if (w.has(k)) share += sph_wall_table(c.wall_density, w.d[k] > 0.f ? w.d[k] : 0.f, c);
    float overlap = 0.f;
    for_each_crease_image(w, dx, 2.f * c.h, [&](Vec3 r, float sign) {
        overlap += sign * sph_w(length_squared(r), c);
    });
    return c.rest_density * share + c.mass * overlap;
}

// The bodies' push (m/s²) for k = (p/ρ²) ρ₀, as sph_wall_accel's for the domain's walls.
PLAB_HD inline Vec3 body_wall_accel(const BodyWalls& w, float k, float dx, const SphConstants& c) {
    Vec3 a{};
    if (!w.any()) return a;
    PLAB_UNROLL
    for (int f = 0; f < static_cast<int>(kCreaseSlots); ++f)
        if (w.has(f))
            a += w.n[f] * (k * sph_wall_table(c.wall_push, w.d[f] > 0.f ? w.d[f] : 0.f, c));
    const float km = k * c.mass / c.rest_density;
    for_each_crease_image(w, dx, 2.f * c.h, [&](Vec3 r, float sign) {
        a += r * (sign * km * sph_grad_factor(length_squared(r), c));
    });
    return a;
}

// The bodies' hard surfaces: a particle that drifted to within `radius` of a face, or into
// it, is put back `radius` out and loses the part of its velocity into the body (free slip,
// as the domain's walls: a moving body's surface moves along itself, body.h, so it drags
// nothing). Each face is its plane where it was read (exact at a flat face; no second read).
PLAB_HD inline void body_wall_clamp(Vec3& pos, Vec3& vel, const BodyWalls& w, float radius) {
    PLAB_UNROLL
    for (int k = 0; k < static_cast<int>(kCreaseSlots); ++k) {
        if (!w.has(k)) continue;
        const Vec3 n = w.n[k];
        const float dist = dot(n, pos) - w.o[k];
        if (dist >= radius) continue;
        pos += n * (radius - dist);
        const float vn = dot(vel, n);
        if (vn < 0.f) vel = vel - n * vn;
    }
}

}  // namespace plab::sim
