#pragma once
// DEM pair and wall formulas shared by both backends (the classic CUDA particles model):
// a linear spring on the overlap, a dashpot on the relative velocity, a viscous shear term
// on the tangential velocity and an optional attraction, then semi-implicit Euler with
// walls that clamp the position and scale the wall-normal velocity.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"

namespace plab::sim {

// Force on particle a (N) from b. Exactly antisymmetric: contact_force(b, a) == -contact_force(a,
// b) bit for bit, so pair forces conserve momentum up to the rounding of the sums.
PLAB_HD inline Vec3 contact_force(Vec3 pos_a, Vec3 vel_a, uint32_t id_a, float radius_a, Vec3 pos_b,
                                  Vec3 vel_b, uint32_t id_b, float radius_b, const Params& p) {
    const Vec3 rel = pos_b - pos_a;
    const float dist2 = length_squared(rel);
    const float reach = radius_a + radius_b;
    if (dist2 >= reach * reach) return {};
    // The contact is the inner loop's expensive part (about 10% of a step at 1M particles on
    // an H200): one reciprocal square root on the device.
    float inv_dist;
    const float dist = distance_and_inverse(dist2, inv_dist);
    Vec3 n;
    if (dist > 1e-6f * reach) {
        n = rel * inv_dist;
    } else {
        // Coincident centres have no direction to push along: use the x axis, signed by id
        // so that the two particles are pushed apart instead of together.
        n = {id_a < id_b ? 1.f : -1.f, 0.f, 0.f};
    }
    const Vec3 rel_vel = vel_b - vel_a;
    const Vec3 tangential = rel_vel - dot(rel_vel, n) * n;
    return -p.spring * (reach - dist) * n + p.damping * rel_vel + p.shear * tangential +
           p.attraction * rel;
}

// The collider is a sphere at rest that pushes with the same contact law.
PLAB_HD inline Vec3 collider_force(Vec3 pos, Vec3 vel, uint32_t id, const Params& p) {
    if (p.collider_radius <= 0.f) return {};
    const Vec3 centre{p.collider_x, p.collider_y, p.collider_z};
    return contact_force(pos, vel, id, p.radius, centre, Vec3{}, 0xffffffffu, p.collider_radius, p);
}

// Velocity after one step of forces and gravity (the "kick" of semi-implicit Euler).
PLAB_HD inline Vec3 kick(Vec3 vel, Vec3 force, const Params& p) {
    const Vec3 gravity{p.gravity_x, p.gravity_y, p.gravity_z};
    return vel + (force * (1.f / p.mass) + gravity) * p.dt;
}

// Global damping, the position update with the new velocity, and the walls: a particle
// past a wall is put back on it and its wall-normal velocity is scaled by boundary_damping.
// V is Vec3, or Vec3d for the double-precision state.
template <typename V>
PLAB_HD inline void drift_and_walls(V& pos, V& vel, const Params& p, const Domain& d) {
    vel = vel * p.global_damping;
    pos = pos + vel * p.dt;
    const float r = p.radius;
    auto wall = [&](auto& x, auto& v, float lo, float hi) {
        if (x > hi - r) {
            x = hi - r;
            v *= p.boundary_damping;
        }
        if (x < lo + r) {
            x = lo + r;
            v *= p.boundary_damping;
        }
    };
    wall(pos.x, vel.x, d.min.x, d.max.x);
    wall(pos.y, vel.y, d.min.y, d.max.y);
    wall(pos.z, vel.z, d.min.z, d.max.z);
}

}  // namespace plab::sim
