#pragma once
// The per-particle body of a DEM step with the frictional contact law (dem_friction.h), for
// both backends. Beside the classic step's arrays it keeps, per particle id (so nothing moves
// when the particles are re-sorted into cell order):
//   omega / omega_next   angular velocity, rad/s (read from one, written to the other, swapped
//                        by the caller after the pass: neighbours read a particle's rotation
//                        while it is being updated)
//   contacts             kContactSlots slots of 16 B: the partner's id and the tangential
//                        stretch from this particle's side; a particle reads and rewrites only
//                        its own slots, and both copies of a contact evolve identically
//   wall_xi              one stretch per axis (a particle touches at most one wall of each pair)
//   collider_xi          the stretch against the collider
// A contact without a free slot is still computed, with no memory (its stretch starts from
// zero each step), and counted in `overflow` so runs can say it happened.
#include <cstdint>

#include "sim/dem_contact.h"
#include "sim/dem_friction.h"
#include "sim/dem_step.h"
#include "sim/hd.h"
#include "sim/params.h"
#include "sim/vec.h"

namespace plab::sim {

// A monodisperse packing touches at most 12 neighbours; overlapping piles rarely more.
inline constexpr int kContactSlots = 12;
inline constexpr uint32_t kFreeSlot = 0xffffffffu;

struct ContactSlot {
    float xi_x = 0, xi_y = 0, xi_z = 0;  // m, tangential stretch
    uint32_t partner = kFreeSlot;        // the other particle's id
};
static_assert(sizeof(ContactSlot) == 16, "16 B per contact slot");

// Raw views of the frictional state; owners live in the simulators.
struct FrictionBuffers {
    const Float4* omega = nullptr;    // by id, rad/s
    Float4* omega_next = nullptr;     // by id, rad/s
    ContactSlot* contacts = nullptr;  // by id, kContactSlots each
    Float4* wall_xi = nullptr;        // by id, 3 each (x, y, z walls), m
    Float4* collider_xi = nullptr;    // by id, m
    // Per id: contacts in the last step (bits 0-14), how many of them slid (bits 15-29), and
    // bit 31 when a contact found no free slot (it ran without memory that step).
    uint32_t* contact_info = nullptr;
};

// What the step needs from the parameters.
PLAB_HD inline FrictionLaw friction_law(const Params& p) {
    FrictionLaw law;
    law.k_n = p.spring;
    law.gamma_n = p.damping;
    law.k_t = p.spring * p.tangential_stiffness;
    law.gamma_t = p.damping * p.tangential_stiffness;
    law.mu_s = p.friction;
    law.mu_r = p.rolling_friction;
    law.dt = p.dt;
    return law;
}

PLAB_HD inline Vec3 xi_of(const ContactSlot& s) { return {s.xi_x, s.xi_y, s.xi_z}; }

// The sums one particle receives, and how much of its contact memory it used.
struct FrictionalSums {
    Vec3 force, torque;  // N, N·m
    uint32_t contacts = 0, sliding = 0, overflow = 0;
};

// Force and torque on the particle at cell-order position i (sorted memory) from every
// candidate `candidates(visit)` offers, the walls of `d` and the collider; rewrites its contact
// slots. Reads neighbours from S and rotations from f.omega.
template <typename Candidates>
PLAB_HD inline FrictionalSums frictional_particle_sums(uint32_t i, const StepBuffers& b,
                                                       const FrictionBuffers& f, const Params& p,
                                                       const Domain& d, Candidates&& candidates) {
    ContactBody a;
    a.pos = xyz(load(b.sorted_pos + i));
    a.vel = xyz(load(b.sorted_vel + i));
    a.id = load(b.sorted_id + i);
    a.radius = p.radius;
    a.omega = xyz(f.omega[a.id]);
    const FrictionLaw law = friction_law(p);
    const float reach2 = 4.f * p.radius * p.radius;

    ContactSlot* mine = f.contacts + static_cast<std::size_t>(a.id) * kContactSlots;
    ContactSlot next[kContactSlots];
    int used = 0;
    FrictionalSums sums;
    auto add = [&](const ContactResult& r) {
        sums.force += r.force;
        sums.torque += r.torque;
        ++sums.contacts;
        sums.sliding += r.sliding ? 1u : 0u;
    };

    candidates([&](uint32_t j) {
        if (j == i) return;
        ContactBody o;
        o.pos = xyz(load(b.sorted_pos + j));
        if (length_squared(o.pos - a.pos) >= reach2) return;
        o.vel = xyz(load(b.sorted_vel + j));
        o.id = load(b.sorted_id + j);
        o.radius = p.radius;
        o.omega = xyz(f.omega[o.id]);
        // The stretch this contact had last step, if it was in memory.
        Vec3 xi{};
        for (int k = 0; k < kContactSlots; ++k) {
            if (mine[k].partner == o.id) {
                xi = xi_of(mine[k]);
                break;
            }
        }
        const ContactResult r = pair_contact(a, o, p.mass, xi, law);
        add(r);
        if (used < kContactSlots)
            next[used++] = {xi.x, xi.y, xi.z, o.id};
        else
            ++sums.overflow;
    });
    for (int k = 0; k < kContactSlots; ++k) mine[k] = k < used ? next[k] : ContactSlot{};

    // Walls: one soft contact per axis, with the nearer wall of the pair.
    Float4* walls = f.wall_xi + static_cast<std::size_t>(a.id) * 3;
    const float lo[3] = {d.min.x, d.min.y, d.min.z}, hi[3] = {d.max.x, d.max.y, d.max.z};
    const float x[3] = {a.pos.x, a.pos.y, a.pos.z};
    for (int axis = 0; axis < 3; ++axis) {
        const bool near_low = x[axis] - lo[axis] < hi[axis] - x[axis];
        const float delta = p.radius - (near_low ? x[axis] - lo[axis] : hi[axis] - x[axis]);
        Vec3 n{};
        (axis == 0 ? n.x : axis == 1 ? n.y : n.z) = near_low ? -1.f : 1.f;
        Vec3 xi = xyz(walls[axis]);
        const ContactResult r = wall_contact(a, p.mass, n, delta, xi, law);
        if (r.touching) add(r);
        walls[axis] = to_float4(xi);
    }

    // The collider: a sphere at rest.
    if (p.collider_radius > 0.f) {
        const Vec3 centre{p.collider_x, p.collider_y, p.collider_z};
        const Vec3 rel = centre - a.pos;
        const float dist = sqrtf(length_squared(rel));
        const float delta = p.radius + p.collider_radius - dist;
        Vec3 xi = xyz(f.collider_xi[a.id]);
        if (delta > 0.f && dist > 0.f) {
            // A body of infinite mass at rest, like a wall (rolling lever: the particle's
            // radius).
            add(wall_contact(a, p.mass, rel * (1.f / dist), delta, xi, law));
        } else {
            xi = {};
        }
        f.collider_xi[a.id] = to_float4(xi);
    }
    return sums;
}

// Kick (linear and angular), drift, and the walls as a safety net only: the soft wall contacts
// keep particles inside; a centre that still crosses a wall is put back on it with its normal
// velocity removed. Writes the state arrays A (position, velocity, id at i) and omega_next.
template <typename Candidates>
PLAB_HD inline void frictional_particle_step(uint32_t i, const StepBuffers& b,
                                             const FrictionBuffers& f, const Params& p,
                                             const Domain& d, Candidates&& candidates) {
    const FrictionalSums s = frictional_particle_sums(i, b, f, p, d, candidates);
    const uint32_t id = load(b.sorted_id + i);
    Vec3 vel = kick(xyz(load(b.sorted_vel + i)), s.force, p) * p.global_damping;
    Vec3 pos = xyz(load(b.sorted_pos + i)) + vel * p.dt;
    auto keep_inside = [](float& x, float& v, float lo, float hi) {
        if (x < lo || x > hi) {
            x = x < lo ? lo : hi;
            v = 0.f;
        }
    };
    keep_inside(pos.x, vel.x, d.min.x, d.max.x);
    keep_inside(pos.y, vel.y, d.min.y, d.max.y);
    keep_inside(pos.z, vel.z, d.min.z, d.max.z);
    b.pos[i] = to_float4(pos);
    b.vel[i] = to_float4(vel);
    b.id[i] = id;
    f.omega_next[id] =
        to_float4(spin_kick(xyz(f.omega[id]), s.torque, p.mass, p.radius, p.dt) * p.global_damping);
    f.contact_info[id] =
        (s.contacts & 0x7fffu) | (s.sliding & 0x7fffu) << 15 | (s.overflow > 0 ? 1u << 31 : 0u);
}

}  // namespace plab::sim
