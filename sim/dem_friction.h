#pragma once
// The frictional DEM contact law (Cundall–Strack), shared by both backends: a linear
// spring–dashpot along the normal, a tangential spring whose stretch is remembered per contact
// (carried from step to step, turned with the contact plane, capped by Coulomb's limit μ_s·F_n),
// and a rolling resistance torque μ_r·R_eff·F_n against the relative rotation. Particles then
// carry an angular velocity and receive torques; walls and the collider are contact partners
// of infinite mass that neither move nor turn.
//
// Exact antisymmetry: a pair is always computed from the side of its lower id, and the other
// side negates the result, so the force, the torque's tangential part and the stored stretch of
// the two copies of a contact (one in each particle's list) are exact negatives of each other.
#include <cstdint>

#include "sim/hd.h"
#include "sim/vec.h"

namespace plab::sim {

PLAB_HD inline Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// The law's constants for one contact, in SI units.
struct FrictionLaw {
    float k_n = 0;      // N/m, normal stiffness
    float gamma_n = 0;  // N·s/m, normal dashpot
    float k_t = 0;      // N/m, tangential stiffness
    float gamma_t = 0;  // N·s/m, tangential dashpot
    float mu_s = 0;     // Coulomb sliding coefficient
    float mu_r = 0;     // rolling resistance coefficient (torque μ_r·R_eff·F_n)
    float dt = 0;       // s, the step the stretch advances by
};

// One body at a contact: a particle, or a wall/collider (omega 0, radius the lever arm used for
// rolling, 0 for a flat wall).
struct ContactBody {
    Vec3 pos, vel, omega;  // m, m/s, rad/s
    float radius = 0;      // m
    uint32_t id = 0;
};

// What one contact does to body a.
struct ContactResult {
    Vec3 force;        // N, on a
    Vec3 torque;       // N·m, on a (tangential force's moment plus rolling resistance)
    Vec3 tangential;   // N, the tangential part of `force`
    Vec3 rolling;      // N·m, the rolling resistance part of `torque`
    float normal = 0;  // N, the normal force's magnitude (≥ 0: the law does not pull)
    bool touching = false;
    bool sliding = false;  // the tangential force sits on the Coulomb limit
};

// The law along a given contact normal `n` (unit, from a towards b), overlap `delta` (m > 0),
// relative velocity of b's surface against a's at the contact `v_c` (m/s), relative rotation
// `omega_rel` = ω_a − ω_b, rolling lever `r_eff` (m) and the reduced moment of inertia
// `inertia_eff` (kg·m²) that caps the rolling torque so it never reverses the rotation in one
// step. Advances `xi`, the tangential stretch as seen from a (m).
PLAB_HD inline ContactResult contact_law(Vec3 n, float delta, Vec3 v_c, Vec3 omega_rel,
                                         float lever_a, float r_eff, float inertia_eff, Vec3& xi,
                                         const FrictionLaw& law) {
    ContactResult r;
    r.touching = true;
    const float v_n = dot(v_c, n);  // > 0 while separating
    // Normal force on a points along −n; the dashpot may not turn it into a pull.
    const float f_n = fmaxf(law.k_n * delta - law.gamma_n * v_n, 0.f);
    r.normal = f_n;
    const Vec3 v_t = v_c - v_n * n;

    // Turn the remembered stretch into the current tangent plane, keeping its length (the
    // contact may have rolled), then stretch it by this step's sliding.
    const float len2 = length_squared(xi);
    Vec3 s = xi - dot(xi, n) * n;
    const float s2 = length_squared(s);
    if (s2 > 0.f && len2 > 0.f) s = s * sqrtf(len2 / s2);
    s += v_t * law.dt;

    // Friction drags a along with b's surface.
    Vec3 f_t = law.k_t * s + law.gamma_t * v_t;
    const float limit = law.mu_s * f_n;
    const float f_t2 = length_squared(f_t);
    if (f_t2 > limit * limit) {
        // Sliding: the force sits on the limit and the spring keeps only what that allows.
        f_t = f_t * (f_t2 > 0.f ? limit / sqrtf(f_t2) : 0.f);
        s = law.k_t > 0.f ? (f_t - law.gamma_t * v_t) * (1.f / law.k_t) : Vec3{};
        r.sliding = true;
    }
    xi = s;

    r.force = -f_n * n + f_t;
    r.tangential = f_t;
    // Rolling resistance: a constant torque against the relative rotation, capped by what
    // stops that rotation within one step (so a resting pair does not rock back and forth).
    const float w2 = length_squared(omega_rel);
    if (law.mu_r > 0.f && w2 > 0.f && r_eff > 0.f) {
        const float w = sqrtf(w2);
        const float t = fminf(law.mu_r * r_eff * f_n, inertia_eff * w / law.dt);
        r.rolling = omega_rel * (-t / w);
    }
    r.torque = cross(lever_a * n, f_t) + r.rolling;
    return r;
}

// Solid-sphere moment of inertia, kg·m².
PLAB_HD inline float sphere_inertia(float mass, float radius) {
    return 0.4f * mass * radius * radius;
}

// A particle pair; `xi` is a's copy of the contact's stretch (from a's side). `mass` is one
// particle's mass (every particle of a DEM run has the same). Computed from the lower id's
// side and negated for the other, so both copies of a contact agree to the bit.
PLAB_HD inline ContactResult pair_contact(const ContactBody& a, const ContactBody& b, float mass,
                                          Vec3& xi, const FrictionLaw& law) {
    const bool a_low = a.id < b.id;
    // Copies, not references: a reference chosen at run time between two bodies would put
    // both in (slow, local) memory on the device; copies become register selects.
    const ContactBody lo = a_low ? a : b;
    const ContactBody hi = a_low ? b : a;
    const Vec3 rel = hi.pos - lo.pos;
    const float reach = lo.radius + hi.radius;
    const float dist2 = length_squared(rel);
    if (dist2 >= reach * reach) {
        xi = {};
        return {};
    }
    const float dist = sqrtf(dist2);
    // Coincident centres have no direction: push along x, from the lower id's side.
    const Vec3 n = dist > 1e-6f * reach ? rel * (1.f / dist) : Vec3{1.f, 0.f, 0.f};
    // Velocity of hi's surface against lo's at the contact point.
    const Vec3 v_c = (hi.vel - lo.vel) - cross(lo.radius * lo.omega + hi.radius * hi.omega, n);
    const float r_eff = lo.radius * hi.radius / reach;
    const float i_lo = sphere_inertia(mass, lo.radius), i_hi = sphere_inertia(mass, hi.radius);
    Vec3 s = a_low ? xi : -xi;
    ContactResult r = contact_law(n, reach - dist, v_c, lo.omega - hi.omega, lo.radius, r_eff,
                                  i_lo * i_hi / (i_lo + i_hi), s, law);
    if (a_low) {
        xi = s;
        return r;
    }
    // Seen from hi: opposite force and stretch; the tangential force's moment about hi's
    // centre has the same sign (lever and force both flip), scaled by hi's radius; rolling
    // resistance opposes hi's relative rotation, which is the negated one.
    xi = -s;
    r.force = -r.force;
    r.torque = cross(hi.radius * n, r.tangential) - r.rolling;
    r.tangential = -r.tangential;
    r.rolling = -r.rolling;
    return r;
}

// A flat wall (or any body of infinite mass at rest) touching particle a: `n` is the unit
// normal from a's centre towards the wall, `delta` the overlap (m). Rolling on a wall uses
// the particle's own radius and inertia.
PLAB_HD inline ContactResult wall_contact(const ContactBody& a, float mass, Vec3 n, float delta,
                                          Vec3& xi, const FrictionLaw& law) {
    if (delta <= 0.f) {
        xi = {};
        return {};
    }
    const Vec3 v_c = -a.vel - cross(a.radius * a.omega, n);
    return contact_law(n, delta, v_c, a.omega, a.radius, a.radius, sphere_inertia(mass, a.radius),
                       xi, law);
}

// Angular velocity after one step of torque (semi-implicit Euler, like the linear kick).
PLAB_HD inline Vec3 spin_kick(Vec3 omega, Vec3 torque, float mass, float radius, float dt) {
    return omega + torque * (dt / sphere_inertia(mass, radius));
}

}  // namespace plab::sim
